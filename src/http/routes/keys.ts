/**
 * API key management (spec 2.1, 5.5; DESIGN §4.2): owner only. Create shows the value once; list
 * never shows values or hashes; revoke is immediate and permanent.
 */
import { getRouterParam } from "h3";
import { fieldsOf } from "../../core/body-schema.js";
import { listOf } from "../../core/lists.js";
import { apiKeyBodySchema } from "../../core/keys.js";
import { createKey, listKeys, revokeKey } from "../../services/keys.js";
import { access } from "../access.js";
import { assertKnownFields, readJsonObject } from "../body.js";
import { apiKeySchema, createdApiKeySchema, revokedKeySchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export const keyRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/keys",
    access: access.owner,
    summary: "List active API keys (never their values) → {data, meta: {total}}",
    response: { schema: apiKeySchema, list: "whole", description: "API keys (never their values)" },
    async handler(_event, { service, workspace }) {
      return listOf(await listKeys(service, workspace.id));
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/keys",
    access: access.owner,
    summary:
      "Create an API key {name, grants, collections?, published_only?} (collections and published_only narrow it: docs/access.md); the value is in this response only",
    body: { schema: apiKeyBodySchema },
    response: { schema: createdApiKeySchema, status: 201, description: "The key, with its value (shown this once)" },
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, fieldsOf(apiKeyBodySchema), "POST /api/dashboard/keys");
      const created = await createKey(service, workspace.id, {
        name: body.name,
        grants: body.grants,
        collections: body.collections,
        published_only: body.published_only,
      });
      event.res.status = 201;
      return created;
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/keys/:id",
    access: access.owner,
    summary: "Revoke an API key: immediate and permanent",
    response: { schema: revokedKeySchema, description: "The revoked key" },
    async handler(event, { service, workspace }) {
      return revokeKey(service, workspace.id, getRouterParam(event, "id")!);
    },
  },
]);
