/**
 * THE write path of entries (DESIGN §5): HTTP, MCP and the CLI all call createEntry, updateEntry
 * and deleteEntry. Each commits in one transaction (which, in durable webhook mode, also records
 * the events in the outbox) and only then emits the events of spec section 3
 * (core/events.ts lifecycleEvents) on ctx.bus, with `{collection, entry}` where entry
 * is the stored row without many-to-many keys (spec 2.5, 6.2).
 *
 * `_published_at` is set the first time an entry is published and then kept: unpublishing and
 * publishing again do not change it (docs/content.md).
 */
import { badRequest, notFound } from "../core/errors.js";
import { lifecycleEvents, publishedAt, type ContentEventName, type Entry, type ServiceEvent } from "../core/events.js";
import { emitEvents } from "./bus.js";
import { toEventEntry } from "../core/collections.js";
import { parseEntryInput } from "../core/entry-schema.js";
import { encodeCursor, parseEntryListQuery, parseEntryReadQuery, type EntryListQuery, type EntryReadQuery } from "../core/entry-query.js";
import type { FieldDefinition } from "../core/collections.js";
import { pageOf } from "../core/lists.js";
import { dataRecord, own } from "../core/records.js";
import type { StoredCollection } from "../storage/collections.js";
import { toEntry, type EntryRow, type RelationMap, type TotalsMemo } from "../storage/entries.js";
import type { Sql } from "../storage/sql.js";
import { listRead } from "./list-reads.js";
import { newRowId } from "../storage/ids.js";
import type { ServiceContext } from "./context.js";
import { assertVisible, getCollection } from "./collections.js";
import { inCollectionScope, outsideScope, readsDrafts } from "../core/key-scope.js";
import type { Actor } from "../core/principal.js";

export type { Entry };

/**
 * Creates an entry (draft unless `_status: "published"`); `actorId` is the UUID of the key or
 * dashboard member (spec 2.5 _created_by). Fires content.created (+ content.published).
 * `actor`, when given, is the caller whose key narrowing applies (core/key-scope.ts): a collection
 * outside a limited key's scope is 404 as if absent, and a relation it writes may name only
 * entries it could read.
 *
 * @example
 * await createEntry(ctx, ws.id, "posts", { title: "Hi", _status: "published" }, principal.id, principal);
 */
export async function createEntry(
  ctx: ServiceContext,
  workspaceId: string,
  collection: string,
  body: Record<string, unknown>,
  actorId: string,
  actor?: Actor,
): Promise<Entry> {
  const entries = ctx.db.entries;
  assertVisible(actor, collection);
  const { entry, events } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const input = parseEntryInput(c, body, "create");
    await checkReferences(ctx, workspaceId, c, input.values, tx, actor);
    const at = new Date(ctx.now()).toISOString();
    const status = input.status ?? "draft";
    const row: EntryRow = {
      id: newRowId(),
      collection_id: c.id,
      status,
      data: mergeData(c, dataRecord(), input.values),
      published_at: publishedAt(null, status, at),
      created_by: actorId,
      created_at: at,
      updated_at: at,
    };
    await entries.insert(row, tx);
    await ctx.db.entryDeliveries.write(c, row, tx);
    const relations = await saveRelations(ctx, c, row.id, dataRecord<string[]>(), input.values, tx);
    const entry = toEntry(c, row, relations);
    return { entry, events: await recordEvents(ctx, tx, workspaceId, c, lifecycleEvents(null, entry._status), entry) };
  });
  emitEvents(ctx, events);
  return entry;
}

/**
 * Patches fields and/or `_status`. Fires content.published, content.unpublished or (status
 * unchanged, including an empty patch) content.updated. For a key limited to published entries
 * (`actor`, core/key-scope.ts) a draft is 404 as if absent: it cannot change, publish or learn
 * anything about a draft it could not read.
 */
export async function updateEntry(ctx: ServiceContext, workspaceId: string, collection: string, id: string, body: Record<string, unknown>, actor?: Actor): Promise<Entry> {
  const entries = ctx.db.entries;
  assertVisible(actor, collection);
  const { entry, events } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const row = await entries.get(c.id, id, { lock: true }, tx);
    if (!row || !mayTouch(actor, row)) throw entryNotFound();
    const input = parseEntryInput(c, body, "patch");
    await checkReferences(ctx, workspaceId, c, input.values, tx, actor);
    const at = new Date(ctx.now()).toISOString();
    const status = input.status ?? row.status;
    const next: EntryRow = {
      ...row,
      status,
      data: mergeData(c, row.data, input.values),
      published_at: publishedAt(row.published_at, status, at),
      updated_at: at,
    };
    await entries.update(next, tx);
    await ctx.db.entryDeliveries.write(c, next, tx);
    const current = hasManyToMany(c) ? ((await entries.relationsOf([id], tx)).get(id) ?? dataRecord<string[]>()) : dataRecord<string[]>();
    const relations = await saveRelations(ctx, c, id, current, input.values, tx);
    const entry = toEntry(c, next, relations);
    return { entry, events: await recordEvents(ctx, tx, workspaceId, c, lifecycleEvents(row.status, entry._status), entry) };
  });
  emitEvents(ctx, events);
  return entry;
}

/**
 * Deletes an entry; fires content.deleted carrying the entry as it was (spec 3). A draft is 404
 * for a key limited to published entries (`actor`), as in updateEntry.
 */
export async function deleteEntry(ctx: ServiceContext, workspaceId: string, collection: string, id: string, actor?: Actor): Promise<Entry> {
  const entries = ctx.db.entries;
  assertVisible(actor, collection);
  const { entry, events } = await ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, collection, tx, "share");
    const row = await entries.get(c.id, id, { lock: true }, tx);
    if (!row || !mayTouch(actor, row)) throw entryNotFound();
    const relations = (await entries.relationsOf([id], tx)).get(id);
    await entries.remove(id, tx);
    const entry = toEntry(c, row, relations);
    return { entry, events: await recordEvents(ctx, tx, workspaceId, c, lifecycleEvents(row.status, null), entry) };
  });
  emitEvents(ctx, events);
  return entry;
}

/**
 * Reads one entry (drafts too unless `publishedOnly`, as the delivery API asks, or `actor` is a
 * key limited to published entries); 404 otherwise, and for a collection outside a limited key's
 * scope.
 */
export async function getEntry(ctx: ServiceContext, collection: StoredCollection, id: string, opts: { publishedOnly?: boolean; actor?: Actor } = {}): Promise<Entry> {
  const entries = ctx.db.entries;
  assertVisible(opts.actor, collection.name);
  const row = await entries.get(collection.id, id, { publishedOnly: opts.publishedOnly === true || !readsDrafts(opts.actor) });
  if (!row) throw entryNotFound();
  const relations = hasManyToMany(collection) ? (await entries.relationsOf([id])).get(id) : undefined;
  return toEntry(collection, row, relations);
}

/** Called once per collection an `expand` reads from, before it is read; throws to refuse. */
export type ExpandCheck = (target: StoredCollection) => Promise<void>;

/** Who reads: the delivery API (published only, `checkExpand` its gates) or the dashboard and MCP (drafts too). */
export interface ReadOptions {
  /** The surface shows published entries only (the delivery API); `status` is then no parameter. */
  publishedOnly: boolean;
  /**
   * The caller, whose key narrowing applies (core/key-scope.ts): a collection or expanded
   * collection outside a limited key's scope is refused, and a key limited to published entries
   * reads them only, whatever the surface.
   */
  actor?: Actor;
  checkExpand?: ExpandCheck;
  /** List totals known to be current (the delivery read's, per content version). */
  totals?: TotalsMemo;
}

/**
 * One entry with the selection `fields` and `expand` (the query string, or the query parsed
 * already by core/entry-query.ts parseEntryReadQuery), as a list selects its entries: the same projection,
 * the same expansion (no drafts with `publishedOnly`), the same `checkExpand`, which runs before
 * the entry is read. 404 like getEntry.
 *
 * @example
 * await readEntry(ctx, posts, id, new URLSearchParams("fields=title&expand=author"), { publishedOnly: true });
 */
export async function readEntry(ctx: ServiceContext, collection: StoredCollection, id: string, params: URLSearchParams | EntryReadQuery, opts: ReadOptions): Promise<Entry> {
  assertVisible(opts.actor, collection.name);
  const publishedOnly = opts.publishedOnly || !readsDrafts(opts.actor);
  const query = params instanceof URLSearchParams ? parseEntryReadQuery(collection, params) : params;
  const targets = await checkedTargets(ctx, collection, query.expand, scoped(opts));
  const entry = await getEntry(ctx, collection, id, { publishedOnly });
  return (await applyReadQuery(ctx, collection, [entry], query, targets, publishedOnly))[0]!;
}

/**
 * One page of a collection's entries with `{data, meta: {total, limit, offset, next}}` (the query
 * language of core/entry-query.ts): two indexed queries, plus one for the page's many-to-many ids
 * when the collection has such fields, plus two per collection an `expand` reads. `meta.next` is
 * the cursor of the following page, null on the last one.
 *
 * Expanded entries follow the list: with `publishedOnly` (delivery) a draft target is never
 * shown, exactly like a missing one (null for a relation, left out of a relations list).
 * `checkExpand` decides who may read each target collection (the delivery API's gates). `params`
 * is the query string, or the query parsed already (the delivery read parses it once, before).
 */
export async function listEntries(
  ctx: ServiceContext,
  collection: StoredCollection,
  params: URLSearchParams | EntryListQuery,
  opts: ReadOptions,
) {
  assertVisible(opts.actor, collection.name);
  const publishedOnly = opts.publishedOnly || !readsDrafts(opts.actor);
  const query = params instanceof URLSearchParams ? parseEntryListQuery(collection, params, { allowStatus: !opts.publishedOnly }) : params;
  const targets = await checkedTargets(ctx, collection, query.expand, scoped(opts));
  // A key limited to published entries asking for drafts: there are none it may see.
  if (publishedOnly && query.status === "draft") return { data: [], meta: { ...pageOf([], 0, query).meta, next: null } };
  const entries = ctx.db.entries;
  const { rows, more, total } = await listRead(ctx, collection.workspaceId, (db) => entries.list(collection.id, query, publishedOnly, db, opts.totals));
  const relations = hasManyToMany(collection) && rows.length > 0 ? await entries.relationsOf(rows.map((r) => r.id)) : undefined;
  const rowsAsEntries = rows.map((r) => toEntry(collection, r, relations?.get(r.id)));
  const last = rowsAsEntries[rowsAsEntries.length - 1];
  const next = more && last ? encodeCursor(query.sort, last) : null;
  const data = await applyReadQuery(ctx, collection, rowsAsEntries, query, targets, publishedOnly);
  const page = pageOf(data, total, query);
  return { data: page.data, meta: { ...page.meta, next } };
}

/**
 * The collections an expansion reads, by name (a relation may point at its own collection), each
 * passed through `check` before anything is read from it.
 */
async function checkedTargets(ctx: ServiceContext, collection: StoredCollection, fields: FieldDefinition[], check?: ExpandCheck): Promise<Map<string, StoredCollection>> {
  const out = new Map<string, StoredCollection>();
  for (const f of fields) {
    const name = f.collection!;
    if (!out.has(name)) out.set(name, name === collection.name ? collection : await getCollection(ctx, collection.workspaceId, name));
  }
  for (const target of out.values()) await check?.(target);
  return out;
}

/** Entries as a read asked for them: relations expanded, then only the asked fields kept. */
async function applyReadQuery(ctx: ServiceContext, collection: StoredCollection, data: Entry[], query: EntryReadQuery, targets: Map<string, StoredCollection>, publishedOnly: boolean): Promise<Entry[]> {
  let out = data;
  if (query.expand.length > 0) out = await expand(ctx, out, query.expand, targets, publishedOnly);
  if (query.fields) out = out.map((e) => project(e, collection, query.fields!, query.expand));
  return out;
}

/** Replaces the ids of `fields` with the entries they name: one read per target collection. */
async function expand(ctx: ServiceContext, data: Entry[], fields: FieldDefinition[], targets: Map<string, StoredCollection>, publishedOnly: boolean): Promise<Entry[]> {
  const entries = ctx.db.entries;
  const found = new Map<string, Map<string, Entry>>();
  for (const [name, target] of targets) {
    const ids = new Set<string>();
    for (const f of fields.filter((x) => x.collection === name)) for (const e of data) for (const id of [e[f.name] ?? []].flat()) ids.add(String(id));
    const rows = await entries.getMany(target.id, [...ids], { publishedOnly });
    const relations = hasManyToMany(target) && rows.length > 0 ? await entries.relationsOf(rows.map((r) => r.id)) : undefined;
    found.set(name, new Map(rows.map((r) => [r.id, toEntry(target, r, relations?.get(r.id))])));
  }
  return data.map((e) => {
    const out: Entry = { ...e };
    for (const f of fields) {
      const byId = found.get(f.collection!)!;
      out[f.name] =
        f.type === "relation"
          ? (typeof e[f.name] === "string" ? (byId.get(e[f.name] as string) ?? null) : null)
          : (e[f.name] as string[]).flatMap((id) => byId.get(id) ?? []);
    }
    return out;
  });
}

/** An entry with only the asked user fields (and the expanded ones), plus every system field. */
function project(e: Entry, c: StoredCollection, fields: string[], expanded: FieldDefinition[]): Entry {
  const keep = new Set([...fields, ...expanded.map((f) => f.name)]);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(e)) if (keep.has(key) || !c.fields.some((f) => f.name === key)) out[key] = v;
  return out as Entry;
}

function entryNotFound() {
  return notFound("Entry not found");
}

/** Whether `actor` may act on a stored entry: a draft not for a key limited to published entries. */
function mayTouch(actor: Actor | undefined, row: Pick<EntryRow, "status">): boolean {
  return row.status === "published" || readsDrafts(actor);
}

/**
 * The expand check of a read with its caller's narrowing: an expansion into a collection outside
 * a limited key's scope is refused like a missing entries:read there (the field definition shows
 * its target already), then the surface's own check runs.
 */
function scoped(opts: ReadOptions): ExpandCheck | undefined {
  const { actor, checkExpand } = opts;
  if (actor?.kind !== "key" || !actor.collections) return checkExpand;
  return async (target) => {
    if (!inCollectionScope(actor, target.name)) throw expandOutsideScope(target.name);
    await checkExpand?.(target);
  };
}

function expandOutsideScope(name: string) {
  return outsideScope("entries:read", name, { parameter: "expand" });
}

function hasManyToMany(c: StoredCollection): boolean {
  return c.fields.some((f) => f.type === "relations");
}

/**
 * The events of a write, built inside its transaction: in durable mode they go into the outbox in
 * that same transaction (docs/webhooks.md "Durable delivery"); they are published after commit.
 */
async function recordEvents(ctx: ServiceContext, tx: Sql, workspaceId: string, c: StoredCollection, names: ContentEventName[], entry: Entry): Promise<ServiceEvent[]> {
  const events: ServiceEvent[] = names.map((event) => ({ workspaceId, event, data: { collection: c.name, entry: toEventEntry(c, entry) } }));
  await ctx.outbox?.record(tx, events);
  return events;
}

/** New `data`: stored values with the patch applied; null clears; many-to-many never lives here. */
function mergeData(c: StoredCollection, data: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  const out = dataRecord();
  for (const f of c.fields) {
    if (f.type === "relations") continue;
    const v = Object.hasOwn(values, f.name) ? values[f.name] : own(data, f.name);
    if (v !== undefined && v !== null) out[f.name] = v;
  }
  return out;
}

async function saveRelations(ctx: ServiceContext, c: StoredCollection, id: string, current: RelationMap, values: Record<string, unknown>, tx: Sql): Promise<RelationMap> {
  const out: RelationMap = dataRecord(current);
  for (const f of c.fields) {
    if (f.type !== "relations" || !Object.hasOwn(values, f.name)) continue;
    const ids = (values[f.name] as string[] | null) ?? [];
    await ctx.db.entries.setRelations(id, f.name, ids, tx);
    out[f.name] = ids;
  }
  return out;
}

/**
 * Every id written must name what its field points at: a relation id an entry (any status) of
 * the field's target collection, a media id an asset of this workspace. Only written values are
 * checked, so a patch that leaves a field alone never fails on it. For a narrowed key (`actor`)
 * only entries it may read count.
 */
async function checkReferences(ctx: ServiceContext, workspaceId: string, c: StoredCollection, values: Record<string, unknown>, tx: Sql, actor?: Actor): Promise<void> {
  for (const f of c.fields) {
    if (values[f.name] === undefined || values[f.name] === null) continue;
    if (f.type === "media") {
      const id = values[f.name] as string;
      const found = await ctx.db.media.existing(workspaceId, [id], tx);
      if (!found.has(id)) throw badRequest(`${f.name}: no media asset ${id} in this workspace`, { field: f.name });
      continue;
    }
    if (f.type !== "relation" && f.type !== "relations") continue;
    const ids = f.type === "relation" ? [values[f.name] as string] : (values[f.name] as string[]);
    if (ids.length === 0) continue;
    const target = f.collection === c.name ? c : await getCollection(ctx, workspaceId, f.collection!, tx);
    // A narrowed key may point only at entries it could read; any other reads as missing, so a
    // write never tells it whether a draft or an entry outside its collections exists.
    const found = !inCollectionScope(actor, target.name)
      ? new Set<string>()
      : readsDrafts(actor)
        ? await ctx.db.entries.existing(target.id, ids, tx)
        : new Set((await ctx.db.entries.getMany(target.id, ids, { publishedOnly: true }, tx)).map((r) => r.id));
    const missing = ids.find((i) => !found.has(i));
    if (missing) throw badRequest(`${f.name}: no entry ${missing} in collection ${target.name}`, { field: f.name });
  }
}
