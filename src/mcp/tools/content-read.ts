/**
 * Read tools over collections and entries (DESIGN §4.3): list_collections and get_collection
 * (collections:read), list_items and get_item (entries:read). Unlike the delivery API, items
 * include drafts (spec 4.2).
 */
import { z } from "zod";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../../core/entry-query.js";
import { listOf } from "../../core/lists.js";
import { collectionView, getCollection, listCollections } from "../../services/collections.js";
import { getEntry, listEntries } from "../../services/entries.js";
import { defineTool } from "../tool.js";

/** The `collection` argument every item tool takes. */
export const collectionArg = z.string().min(1).describe("Collection name, as returned by list_collections (e.g. \"posts\").");
/** The `id` argument of the single-item tools. */
export const itemIdArg = z.string().min(1).describe("The entry's id (a UUID), as returned by list_items or create_item.");

export const contentReadTools = [
  defineTool({
    name: "list_collections",
    grant: "collections:read",
    summary: "Every collection definition of the workspace: name, fields, access",
    description:
      "Lists every collection (content type) of the workspace as {data: [collection], meta: {total}}, with its field definitions: each field has a name, a type " +
      "(string, text, number, boolean, datetime, json, media, relation, relations) and whether it is required; relation " +
      "fields name their target collection. Call this first to learn which collections exist and what fields an item takes.",
    input: z.strictObject({}),
    annotations: { title: "List collections", readOnlyHint: true, openWorldHint: false },
    run: async (_args, ctx) => listOf((await listCollections(ctx.service, ctx.workspaceId)).map(collectionView)),
  }),
  defineTool({
    name: "get_collection",
    grant: "collections:read",
    summary: "One collection definition by name",
    description: "Returns one collection's definition (fields with name, type, required, relation target; access: public, private or gated).",
    input: z.strictObject({ name: collectionArg }),
    annotations: { title: "Get a collection", readOnlyHint: true, openWorldHint: false },
    run: async ({ name }, ctx) => collectionView(await getCollection(ctx.service, ctx.workspaceId, name)),
  }),
  defineTool({
    name: "list_items",
    grant: "entries:read",
    summary: "One page of a collection's entries, drafts included (status, limit, offset, sort, filter)",
    description:
      "Lists the entries (items) of one collection, drafts as well as published ones, newest first. Returns " +
      `{data: [entry], meta: {total, limit, offset}}; page with limit (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and offset ` +
      "until offset + limit >= total. Each entry has id, its fields, _status (draft or published), _published_at, " +
      "_created_by, _created_at and _updated_at.",
    input: z.strictObject({
      collection: collectionArg,
      status: z.enum(["draft", "published"]).optional().describe("Only entries with this status; omit for both."),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Page size, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
      offset: z.number().int().min(0).max(999_999_999).optional().describe("How many entries to skip (default 0)."),
      sort: z
        .string()
        .optional()
        .describe("A field name, or id, _created_at, _updated_at, _published_at; prefix with - for descending (default -_created_at)."),
      filter: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .optional()
        .describe("Equality filters by field name, e.g. {\"featured\": true}; json and relations fields cannot be filtered."),
    }),
    annotations: { title: "List items", readOnlyHint: true, openWorldHint: false },
    async run({ collection, status, limit, offset, sort, filter }, ctx) {
      // The same query parser as the dashboard list (docs/content.md), so names are checked alike.
      const params = new URLSearchParams();
      if (status) params.set("status", status);
      if (limit !== undefined) params.set("limit", String(limit));
      if (offset !== undefined) params.set("offset", String(offset));
      if (sort) params.set("sort", sort);
      for (const [field, value] of Object.entries(filter ?? {})) params.append(`filter[${field}]`, String(value));
      const c = await getCollection(ctx.service, ctx.workspaceId, collection);
      return listEntries(ctx.service, c, params, { publishedOnly: false });
    },
  }),
  defineTool({
    name: "get_item",
    grant: "entries:read",
    summary: "One entry by id, draft or published",
    description: "Returns one entry of a collection by id, whether draft or published, with all its fields and system fields.",
    input: z.strictObject({ collection: collectionArg, id: itemIdArg }),
    annotations: { title: "Get an item", readOnlyHint: true, openWorldHint: false },
    run: async ({ collection, id }, ctx) => getEntry(ctx.service, await getCollection(ctx.service, ctx.workspaceId, collection), id),
  }),
];
