/**
 * THE write path of entries (DESIGN §5): HTTP, MCP and the CLI all call createEntry, updateEntry
 * and deleteEntry. Each commits in one transaction and only then emits the events of spec
 * section 3 (core/events.ts lifecycleEvents) on ctx.bus, with `{collection, entry}` where entry
 * is the stored row without many-to-many keys (spec 2.5, 6.2).
 *
 * `_published_at` is set the first time an entry is published and then kept: unpublishing and
 * publishing again do not change it (docs/content.md).
 */
import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "../core/errors.js";
import { lifecycleEvents, type ContentEventName } from "../core/events.js";
import { toEventEntry } from "../core/collections.js";
import { parseEntryInput } from "../core/entry-schema.js";
import { parseEntryListQuery } from "../core/entry-query.js";
import { pageOf } from "../core/lists.js";
import type { StoredCollection } from "../storage/collections.js";
import { createMediaRepo } from "../storage/media.js";
import { createEntryRepo, toEntry, type Entry, type EntryRow, type RelationMap } from "../storage/entries.js";
import type { Sql } from "../storage/sql.js";
import { repo } from "../storage/context.js";
import type { ServiceContext } from "./context.js";
import { getCollection } from "./collections.js";

export type { Entry };

/**
 * Creates an entry (draft unless `_status: "published"`); `actorId` is the UUID of the key or
 * dashboard user (spec 2.5 _created_by). Fires content.created (+ content.published).
 *
 * @example
 * await createEntry(ctx, ws.id, "posts", { title: "Hi", _status: "published" }, principal.id);
 */
export async function createEntry(ctx: ServiceContext, workspaceId: string, collection: string, body: Record<string, unknown>, actorId: string): Promise<Entry> {
  const entries = repo(ctx, createEntryRepo);
  const { c, entry } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const input = parseEntryInput(c, body, "create");
    await checkReferences(ctx, workspaceId, c, input.values, tx);
    const at = new Date(ctx.now()).toISOString();
    const status = input.status ?? "draft";
    const row: EntryRow = {
      id: randomUUID(),
      collection_id: c.id,
      status,
      data: mergeData(c, {}, input.values),
      published_at: status === "published" ? at : null,
      created_by: actorId,
      created_at: at,
      updated_at: at,
    };
    await entries.insert(row, tx);
    const relations = await saveRelations(ctx, c, row.id, {}, input.values, tx);
    return { c, entry: toEntry(c, row, relations) };
  });
  emit(ctx, workspaceId, c, lifecycleEvents(null, entry._status), entry);
  return entry;
}

/**
 * Patches fields and/or `_status`. Fires content.published, content.unpublished or (status
 * unchanged, including an empty patch) content.updated.
 */
export async function updateEntry(ctx: ServiceContext, workspaceId: string, collection: string, id: string, body: Record<string, unknown>): Promise<Entry> {
  const entries = repo(ctx, createEntryRepo);
  const { c, before, entry } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const row = await entries.get(c.id, id, { lock: true }, tx);
    if (!row) throw entryNotFound();
    const input = parseEntryInput(c, body, "patch");
    await checkReferences(ctx, workspaceId, c, input.values, tx);
    const at = new Date(ctx.now()).toISOString();
    const status = input.status ?? row.status;
    const next: EntryRow = {
      ...row,
      status,
      data: mergeData(c, row.data, input.values),
      published_at: row.published_at ?? (status === "published" ? at : null),
      updated_at: at,
    };
    await entries.update(next, tx);
    const current = (await entries.relationsOf([id], tx)).get(id) ?? {};
    const relations = await saveRelations(ctx, c, id, current, input.values, tx);
    return { c, before: row, entry: toEntry(c, next, relations) };
  });
  emit(ctx, workspaceId, c, lifecycleEvents(before.status, entry._status), entry);
  return entry;
}

/** Deletes an entry; fires content.deleted carrying the entry as it was (spec 3). */
export async function deleteEntry(ctx: ServiceContext, workspaceId: string, collection: string, id: string): Promise<Entry> {
  const entries = repo(ctx, createEntryRepo);
  const { c, entry } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const row = await entries.get(c.id, id, { lock: true }, tx);
    if (!row) throw entryNotFound();
    const relations = (await entries.relationsOf([id], tx)).get(id);
    await entries.remove(id, tx);
    return { c, entry: toEntry(c, row, relations) };
  });
  emit(ctx, workspaceId, c, ["content.deleted"], entry);
  return entry;
}

/** Reads one entry (drafts too unless `publishedOnly`, as the delivery API asks); 404 otherwise. */
export async function getEntry(ctx: ServiceContext, collection: StoredCollection, id: string, opts: { publishedOnly?: boolean } = {}): Promise<Entry> {
  const entries = repo(ctx, createEntryRepo);
  const row = await entries.get(collection.id, id, opts);
  if (!row) throw entryNotFound();
  const relations = hasManyToMany(collection) ? (await entries.relationsOf([id])).get(id) : undefined;
  return toEntry(collection, row, relations);
}

/**
 * One page of a collection's entries with `{data, meta: {total, limit, offset}}`: two indexed
 * queries, plus one for the page's many-to-many ids when the collection has such fields.
 */
export async function listEntries(ctx: ServiceContext, collection: StoredCollection, params: URLSearchParams, opts: { publishedOnly: boolean }) {
  const query = parseEntryListQuery(collection, params, { allowStatus: !opts.publishedOnly });
  const entries = repo(ctx, createEntryRepo);
  const { rows, total } = await entries.list(collection.id, query, opts.publishedOnly);
  const relations = hasManyToMany(collection) && rows.length > 0 ? await entries.relationsOf(rows.map((r) => r.id)) : undefined;
  return pageOf(rows.map((r) => toEntry(collection, r, relations?.get(r.id))), total, query);
}

function entryNotFound() {
  return notFound("Entry not found");
}

function hasManyToMany(c: StoredCollection): boolean {
  return c.fields.some((f) => f.type === "relations");
}

function emit(ctx: ServiceContext, workspaceId: string, c: StoredCollection, events: ContentEventName[], entry: Entry): void {
  for (const event of events) ctx.bus.emit({ workspaceId, event, data: { collection: c.name, entry: toEventEntry(c, entry) } });
}

/** New `data`: stored values with the patch applied; null clears; many-to-many never lives here. */
function mergeData(c: StoredCollection, data: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of c.fields) {
    if (f.type === "relations") continue;
    const v = Object.hasOwn(values, f.name) ? values[f.name] : data[f.name];
    if (v !== undefined && v !== null) out[f.name] = v;
  }
  return out;
}

async function saveRelations(ctx: ServiceContext, c: StoredCollection, id: string, current: RelationMap, values: Record<string, unknown>, tx: Sql): Promise<RelationMap> {
  const out: RelationMap = { ...current };
  for (const f of c.fields) {
    if (f.type !== "relations" || !Object.hasOwn(values, f.name)) continue;
    const ids = (values[f.name] as string[] | null) ?? [];
    await repo(ctx, createEntryRepo).setRelations(id, f.name, ids, tx);
    out[f.name] = ids;
  }
  return out;
}

/**
 * Every id written must name what its field points at: a relation id an entry (any status) of
 * the field's target collection, a media id an asset of this workspace. Only written values are
 * checked, so a patch that leaves a field alone never fails on it.
 */
async function checkReferences(ctx: ServiceContext, workspaceId: string, c: StoredCollection, values: Record<string, unknown>, tx: Sql): Promise<void> {
  for (const f of c.fields) {
    if (values[f.name] === undefined || values[f.name] === null) continue;
    if (f.type === "media") {
      const id = values[f.name] as string;
      const found = await repo(ctx, createMediaRepo).existing(workspaceId, [id], tx);
      if (!found.has(id)) throw badRequest(`${f.name}: no media asset ${id} in this workspace`, { field: f.name });
      continue;
    }
    if (f.type !== "relation" && f.type !== "relations") continue;
    const ids = f.type === "relation" ? [values[f.name] as string] : (values[f.name] as string[]);
    if (ids.length === 0) continue;
    const target = f.collection === c.name ? c : await getCollection(ctx, workspaceId, f.collection!, tx);
    const found = await repo(ctx, createEntryRepo).existing(target.id, ids, tx);
    const missing = ids.find((i) => !found.has(i));
    if (missing) throw badRequest(`${f.name}: no entry ${missing} in collection ${target.name}`, { field: f.name });
  }
}
