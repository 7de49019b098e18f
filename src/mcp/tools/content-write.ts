/**
 * Write tools over entries (DESIGN §4.3, entries:write): create_item, update_item, publish_item,
 * unpublish_item, delete_item. Each goes through services/entries.ts, the one write path, so
 * validation and the events of spec section 3 (and so webhooks) are exactly those of the HTTP API;
 * `_created_by` is the calling key's id (spec 2.5).
 */
import { z } from "zod";
import type { EntryStatus } from "../../core/events.js";
import { collectionFor } from "../../services/collections.js";
import { createEntry, deleteEntry, getEntry, updateEntry } from "../../services/entries.js";
import { defineTool, keyActor, type ToolContext } from "../tool.js";
import { collectionArg, itemIdArg } from "./content-read.js";

const fieldsArg = z
  .record(z.string(), z.unknown())
  .describe(
    "Field values by field name, as defined by the collection (see get_collection): strings, numbers, booleans, ISO 8601 " +
      "datetimes, any JSON for json fields, the id of an asset of this workspace (see list_media) for media fields, an entry id for relation fields and an array of " +
      "entry ids for relations fields. System fields (id, _created_at, …) are read-only.",
  );
const statusArg = z.enum(["draft", "published"]);

export const contentWriteTools = [
  defineTool({
    name: "create_item",
    grant: "entries:write",
    summary: "Create an entry (draft unless status is published); fires content.created",
    description:
      "Creates an entry in a collection and returns it. It is a draft unless status is \"published\". Values are validated " +
      "against the collection's fields (required fields must be given); an invalid value fails with a message naming the " +
      "field. Fires content.created (and content.published when created published), like any other write.",
    input: z.strictObject({
      collection: collectionArg,
      fields: fieldsArg,
      status: statusArg.optional().describe("draft (default) or published."),
    }),
    annotations: { title: "Create an item", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: ({ collection, fields, status }, ctx) =>
      createEntry(ctx.service, ctx.workspaceId, collection, withStatus(fields, status), ctx.key.id, keyActor(ctx)),
  }),
  defineTool({
    name: "update_item",
    grant: "entries:write",
    summary: "Patch an entry's fields and/or status; fires content.updated (or published/unpublished)",
    description:
      "Changes some fields of an entry (fields not given keep their values; null clears an optional field) and/or its " +
      "status, and returns the entry. Fires content.updated, or content.published / content.unpublished when the status changes.",
    input: z.strictObject({
      collection: collectionArg,
      id: itemIdArg,
      fields: fieldsArg.optional(),
      status: statusArg.optional().describe("New status; omit to keep it."),
    }),
    annotations: { title: "Update an item", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ collection, id, fields, status }, ctx) =>
      updateEntry(ctx.service, ctx.workspaceId, collection, id, withStatus(fields ?? {}, status), keyActor(ctx)),
  }),
  defineTool({
    name: "publish_item",
    grant: "entries:write",
    summary: "Set an entry's status to published; fires content.published",
    description:
      "Publishes an entry (it becomes visible on the public delivery API) and returns it. Fires content.published. " +
      "An entry that is already published is returned unchanged: nothing is written and no event fires.",
    input: z.strictObject({ collection: collectionArg, id: itemIdArg }),
    annotations: { title: "Publish an item", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ collection, id }, ctx) => moveTo(ctx, collection, id, "published"),
  }),
  defineTool({
    name: "unpublish_item",
    grant: "entries:write",
    summary: "Set an entry's status back to draft; fires content.unpublished",
    description:
      "Moves a published entry back to draft (it disappears from the public delivery API) and returns it. Fires " +
      "content.unpublished. An entry that is already a draft is returned unchanged: nothing is written and no event fires.",
    input: z.strictObject({ collection: collectionArg, id: itemIdArg }),
    annotations: { title: "Unpublish an item", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ collection, id }, ctx) => moveTo(ctx, collection, id, "draft"),
  }),
  defineTool({
    name: "delete_item",
    grant: "entries:write",
    summary: "Delete an entry permanently; fires content.deleted",
    description: "Deletes an entry permanently and returns it as it was. Fires content.deleted. This cannot be undone.",
    input: z.strictObject({ collection: collectionArg, id: itemIdArg }),
    annotations: { title: "Delete an item", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: ({ collection, id }, ctx) => deleteEntry(ctx.service, ctx.workspaceId, collection, id, keyActor(ctx)),
  }),
];

function withStatus(fields: Record<string, unknown>, status: EntryStatus | undefined): Record<string, unknown> {
  return status ? { ...fields, _status: status } : fields;
}

/**
 * publish/unpublish: a status change through updateEntry (spec 3 transitions); asking for the
 * status the entry already has is a no-op, so an agent that retries fires no extra
 * content.updated (which a PATCH that saves the entry would, being a save).
 */
async function moveTo(ctx: ToolContext, collection: string, id: string, status: EntryStatus) {
  const actor = keyActor(ctx);
  const current = await getEntry(ctx.service, await collectionFor(ctx.service, ctx.workspaceId, collection, actor), id, { actor });
  if (current._status === status) return current;
  return updateEntry(ctx.service, ctx.workspaceId, collection, id, { _status: status }, actor);
}
