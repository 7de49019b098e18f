/**
 * Collection definitions (DESIGN §4.2): `/api/dashboard/collections`, collections:read / :write.
 */
import { getRouterParam } from "h3";
import { access } from "../access.js";
import { defineRoutes } from "../route.js";
import { readJsonObject } from "../body.js";
import { listOf } from "../../core/lists.js";
import { collectionView, createCollection, deleteCollection, getCollection, listCollections, updateCollection } from "../../services/collections.js";
import { collectionDefinitionSchema } from "../../core/collections.js";

export const collectionRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/collections",
    access: access.grant("collections:read"),
    summary: "List collection definitions → {data: [collection], meta: {total}}",
    response: { list: "whole", description: "Collection definitions {id, name, fields, access, rule, created_at, updated_at}" },
    handler: async (_event, { service, workspace }) => listOf((await listCollections(service, workspace.id)).map(collectionView)),
  },
  {
    method: "POST",
    path: "/api/dashboard/collections",
    access: access.grant("collections:write"),
    summary: "Create a collection {name, fields, access, rule?} → 201 collection; public or gated also needs entries:read",
    body: { schema: collectionDefinitionSchema },
    response: { status: 201, description: "The collection" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const created = await createCollection(service, workspace.id, body, principal!);
      event.res.status = 201;
      return collectionView(created);
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:read"),
    summary: "One collection definition",
    response: { description: "The collection" },
    handler: async (event, { service, workspace }) => collectionView(await getCollection(service, workspace.id, getRouterParam(event, "name") ?? "")),
  },
  {
    method: "PUT",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:write"),
    summary: "Replace a definition; 409 when stored entries would violate it; opening it to more readers also needs entries:read",
    body: { schema: collectionDefinitionSchema },
    response: { description: "The collection" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      return collectionView(await updateCollection(service, workspace.id, getRouterParam(event, "name") ?? "", body, principal!));
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:write"),
    summary: "Delete an empty, unreferenced collection → the definition as it was",
    response: { description: "The collection as it was" },
    handler: async (event, { service, workspace }) => collectionView(await deleteCollection(service, workspace.id, getRouterParam(event, "name") ?? "")),
  },
]);
