/**
 * Collection definitions (DESIGN §4.2): `/api/dashboard/collections`, collections:read / :write.
 * PATCH changes one field; PUT and PATCH drop stored values only with `?confirm=drop`.
 */
import { getQuery, getRouterParam, type H3Event } from "h3";
import { badRequest } from "../../core/errors.js";
import { access } from "../access.js";
import { collectionSchema, fieldChangeBody, fieldChangeResultSchema } from "../responses.js";
import { defineRoutes } from "../route.js";
import { readJsonObject } from "../body.js";
import { listOf } from "../../core/lists.js";
import {
  changeCollectionField,
  collectionView,
  createCollection,
  deleteCollection,
  collectionFor,
  listCollections,
  updateCollection,
  type SchemaChangeOptions,
} from "../../services/collections.js";
import { collectionDefinitionSchema } from "../../core/collections.js";

export const collectionRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/collections",
    access: access.grant("collections:read"),
    summary: "List collection definitions → {data: [collection], meta: {total}}",
    response: { schema: collectionSchema, list: "whole", description: "Collection definitions" },
    handler: async (_event, { service, workspace, principal }) => listOf((await listCollections(service, workspace.id, principal)).map(collectionView)),
  },
  {
    method: "POST",
    path: "/api/dashboard/collections",
    access: access.grant("collections:write"),
    summary: "Create a collection {name, fields, access, rule?} → 201 collection; public or gated also needs entries:read",
    body: { schema: collectionDefinitionSchema },
    response: { schema: collectionSchema, status: 201, description: "The collection" },
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
    response: { schema: collectionSchema, description: "The collection" },
    handler: async (event, { service, workspace, principal }) =>
      collectionView(await collectionFor(service, workspace.id, getRouterParam(event, "name") ?? "", principal)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:write"),
    summary: "Replace a definition; 409 when stored entries would violate it or a removed field holds values (?confirm=drop drops them); opening it to more readers also needs entries:read",
    body: { schema: collectionDefinitionSchema },
    response: { schema: collectionSchema, description: "The collection" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      return collectionView(await updateCollection(service, workspace.id, getRouterParam(event, "name") ?? "", body, principal!, readConfirm(event)));
    },
  },
  {
    method: "PATCH",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:write"),
    summary:
      "Add, rename or remove one field ({add: field} | {rename: {from, to}} | {remove: name}; ?confirm=drop to drop stored values) → {data: collection, meta: {values}}; 409 with values when a removal would drop values unconfirmed",
    body: { schema: fieldChangeBody },
    response: { schema: fieldChangeResultSchema, description: "The collection and how many stored values the change dropped" },
    handler: async (event, { service, workspace, principal }) => {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const result = await changeCollectionField(service, workspace.id, getRouterParam(event, "name") ?? "", body, principal!, readConfirm(event));
      return { data: collectionView(result.collection), meta: { values: result.values } };
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/collections/:name",
    access: access.grant("collections:write"),
    summary: "Delete an empty, unreferenced collection → the definition as it was",
    response: { schema: collectionSchema, description: "The collection as it was" },
    handler: async (event, { service, workspace, principal }) =>
      collectionView(await deleteCollection(service, workspace.id, getRouterParam(event, "name") ?? "", principal)),
  },
]);

/** `?confirm=drop` lets a schema change drop stored values; any other value of confirm is a mistake. */
function readConfirm(event: H3Event): SchemaChangeOptions {
  const confirm = getQuery(event).confirm;
  if (confirm === undefined) return {};
  if (confirm !== "drop") throw badRequest("confirm: expected drop", { field: "confirm" });
  return { confirmDrop: true };
}
