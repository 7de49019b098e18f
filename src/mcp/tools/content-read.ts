/**
 * Read tools over collections and entries (DESIGN §4.3): list_collections and get_collection
 * (collections:read), list_items and get_item (entries:read). Unlike the delivery API, items
 * include drafts (spec 4.2).
 */
import { z } from "zod";
import { DEFAULT_LIMIT, FILTER_OPS, MAX_IN_VALUES, MAX_LIMIT, MAX_SORT_KEYS } from "../../core/entry-query.js";
import { MAX_OFFSET } from "../../core/pagination.js";
import { listOf } from "../../core/lists.js";
import { collectionFor, collectionView, listCollections } from "../../services/collections.js";
import { listEntries, readEntry } from "../../services/entries.js";
import { defineTool, keyActor } from "../tool.js";

/** The `collection` argument every item tool takes. */
export const collectionArg = z.string().min(1).describe("Collection name, as returned by list_collections (e.g. \"posts\").");
/** One filter value of list_items. */
const filterScalar = z.union([z.string(), z.number(), z.boolean()]);
/** The `fields` and `expand` arguments list_items and get_item share. */
const selectionArgs = {
  fields: z.array(z.string()).optional().describe("Only these user fields in each item (system fields always come)."),
  expand: z
    .array(z.string())
    .optional()
    .describe("relation / relations fields whose ids are replaced by the related entries (drafts included), one level deep."),
};
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
    run: async (_args, ctx) => listOf((await listCollections(ctx.service, ctx.workspaceId, keyActor(ctx))).map(collectionView)),
  }),
  defineTool({
    name: "get_collection",
    grant: "collections:read",
    summary: "One collection definition by name",
    description: "Returns one collection's definition (fields with name, type, required, relation target; access: public, private or gated).",
    input: z.strictObject({ name: collectionArg }),
    annotations: { title: "Get a collection", readOnlyHint: true, openWorldHint: false },
    run: async ({ name }, ctx) => collectionView(await collectionFor(ctx.service, ctx.workspaceId, name, keyActor(ctx))),
  }),
  defineTool({
    name: "list_items",
    grant: "entries:read",
    summary: "One page of a collection's entries, drafts included (status, limit, offset/after, sort, fields, expand, filter)",
    description:
      "Lists the entries (items) of one collection, drafts as well as published ones (published only for a key limited to " +
      "published entries), newest first. Returns " +
      `{data: [entry], meta: {total, limit, offset, next}}; page with limit (0-${MAX_LIMIT}, default ${DEFAULT_LIMIT}) and either ` +
      "offset, or after = meta.next of the previous page (null on the last page). Each entry has id, its fields, _status " +
      "(draft or published), _published_at, _created_by, _created_at and _updated_at. The same query language as the " +
      "delivery API: filters per field with operators, several sort keys, fields to return, relations to expand.",
    input: z.strictObject({
      collection: collectionArg,
      status: z.enum(["draft", "published"]).optional().describe("Only entries with this status; omit for both."),
      limit: z.number().int().min(0).max(MAX_LIMIT).optional().describe(`Page size, 0-${MAX_LIMIT} (default ${DEFAULT_LIMIT}); 0 returns only meta.total.`),
      offset: z.number().int().min(0).max(MAX_OFFSET).optional().describe("How many entries to skip (default 0); not with after."),
      after: z.string().optional().describe("meta.next of the previous page, unchanged, with the same sort and filters; not with offset."),
      sort: z
        .union([z.string(), z.array(z.string()).max(MAX_SORT_KEYS)])
        .optional()
        .describe(
          "Sort keys, most significant first, as a list or comma-separated: a field name, or id, _created_at, _updated_at, _published_at; " +
            "prefix with - for descending (default -_created_at). Ties are broken by id.",
        ),
      ...selectionArgs,
      filter: z
        .record(z.string(), z.union([filterScalar, z.partialRecord(z.enum(FILTER_OPS), z.union([filterScalar, z.array(filterScalar).max(MAX_IN_VALUES)]))]))
        .optional()
        .describe(
          `Filters by field name, AND-ed: a value means equality ({"featured": true}); an object gives operators (${FILTER_OPS.join(", ")}), e.g. ` +
            '{"views": {"gte": 10}, "title": {"contains": "news"}, "tag": {"in": ["a", "b"]}, "cover": {"null": true}}. ' +
            "System fields id, _created_at, _updated_at and _published_at filter too (dates as ISO 8601).",
        ),
    }),
    annotations: { title: "List items", readOnlyHint: true, openWorldHint: false },
    async run({ collection, status, limit, offset, after, sort, fields, expand, filter }, ctx) {
      // The same query parser as the delivery and dashboard lists (docs/content.md), so names are checked alike.
      const params = new URLSearchParams();
      if (status) params.set("status", status);
      if (limit !== undefined) params.set("limit", String(limit));
      if (offset !== undefined) params.set("offset", String(offset));
      if (after !== undefined) params.set("after", after);
      if (sort !== undefined) params.set("sort", [sort].flat().join(","));
      setSelection(params, fields, expand);
      for (const [field, value] of Object.entries(filter ?? {})) {
        if (typeof value !== "object") params.append(`filter[${field}]`, String(value));
        else for (const [op, v] of Object.entries(value)) if (v !== undefined) params.append(`filter[${field}][${op}]`, [v].flat().join(","));
      }
      const c = await collectionFor(ctx.service, ctx.workspaceId, collection, keyActor(ctx));
      return listEntries(ctx.service, c, params, { publishedOnly: false, actor: keyActor(ctx) });
    },
  }),
  defineTool({
    name: "get_item",
    grant: "entries:read",
    summary: "One entry by id, draft or published (fields, expand)",
    description:
      "Returns one entry of a collection by id, whether draft or published (a draft is not found for a key limited to " +
      "published entries), with all its fields and system fields; " +
      "fields and expand as in list_items.",
    input: z.strictObject({ collection: collectionArg, id: itemIdArg, ...selectionArgs }),
    annotations: { title: "Get an item", readOnlyHint: true, openWorldHint: false },
    async run({ collection, id, fields, expand }, ctx) {
      const params = new URLSearchParams();
      setSelection(params, fields, expand);
      const c = await collectionFor(ctx.service, ctx.workspaceId, collection, keyActor(ctx));
      return readEntry(ctx.service, c, id, params, { publishedOnly: false, actor: keyActor(ctx) });
    },
  }),
];

/** fields and expand as query parameters, for the parser every surface shares. */
function setSelection(params: URLSearchParams, fields: string[] | undefined, expand: string[] | undefined): void {
  if (fields) params.set("fields", fields.join(","));
  if (expand) params.set("expand", expand.join(","));
}
