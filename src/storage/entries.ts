/**
 * Entries (table entries): user fields as JSON in `data` (one-to-many `relation` values included),
 * many-to-many values in entry_relations ordered by position. Reads return entries as in spec 2.5
 * with every many-to-many field as an id array; events leave those out (core/collections.ts toEventEntry).
 */
import type { CollectionDefinition } from "../core/collections.js";
import type { Entry, EntryStatus } from "../core/events.js";
import type { EntryListQuery } from "../core/entry-query.js";
import type { StorageContext } from "./context.js";
import type { Sql, SqlValue } from "./sql.js";
import { buildListQuery, jsonPath } from "./entry-query.js";
import { parseObjectColumn } from "./json-column.js";
import { dataRecord, own } from "../core/records.js";

/** A stored row with `data` parsed. */
export interface EntryRow {
  id: string;
  collection_id: string;
  status: EntryStatus;
  data: Record<string, unknown>;
  published_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Many-to-many ids of one entry, by field name. */
export type RelationMap = Record<string, string[]>;

type RawRow = Omit<EntryRow, "data" | "status"> & { status: string; data: string };
const COLUMNS = "id, collection_id, status, data, published_at, created_by, created_at, updated_at";

function fromRaw(raw: RawRow): EntryRow {
  return { ...raw, status: raw.status === "published" ? "published" : "draft", data: parseObjectColumn(raw.data) };
}

/**
 * The API form of a row: id, every defined field (null when unset; many-to-many as id arrays,
 * empty when unset), then the system fields. Only defined fields appear.
 */
export function toEntry(def: Pick<CollectionDefinition, "fields">, row: EntryRow, relations: RelationMap | undefined): Entry {
  const out: Record<string, unknown> = { id: row.id };
  // own(): a field named `constructor` that was never set is null, not Object.prototype's.
  for (const f of def.fields) out[f.name] = f.type === "relations" ? ((relations && own(relations, f.name)) ?? []) : (own(row.data, f.name) ?? null);
  out._status = row.status;
  out._published_at = row.published_at;
  out._created_by = row.created_by;
  out._created_at = row.created_at;
  out._updated_at = row.updated_at;
  return out as Entry;
}

/**
 * The entry repository of a service context.
 *
 * @example
 * const row = await ctx.db.entries.get(collection.id, id);
 */
export function createEntryRepo(ctx: StorageContext) {
  const self = {
    /** One entry of a collection, or undefined; `publishedOnly` for the delivery API. */
    async get(collectionId: string, id: string, opts: { publishedOnly?: boolean; lock?: boolean } = {}, db: Sql = ctx.sql) {
      const status = opts.publishedOnly ? " AND status = 'published'" : "";
      const lock = opts.lock && db.dialect === "postgresql" ? " FOR UPDATE" : "";
      const raw = await db.get<RawRow>(`SELECT ${COLUMNS} FROM entries WHERE collection_id = ? AND id = ?${status}${lock}`, [collectionId, id]);
      return raw && fromRaw(raw);
    },

    /**
     * One page and the total (an unfiltered total is one read of entry_counts, migration 003);
     * `more` says whether rows follow the page (one extra row is read to know); `totals` holds
     * totals known to be current.
     */
    async list(collectionId: string, query: EntryListQuery, publishedOnly: boolean, db: Sql = ctx.sql, totals?: TotalsMemo) {
      const q = buildListQuery(db.dialect, collectionId, query, publishedOnly);
      const [rows, count] = await Promise.all([
        query.limit === 0
          ? Promise.resolve([])
          : db.all<RawRow>(`SELECT ${COLUMNS} FROM entries ${q.where}${q.keyset} ${q.orderBy} LIMIT ? OFFSET ?`, [
              ...q.params,
              ...q.keysetParams,
              ...q.orderParams,
              query.limit + 1,
              query.offset,
            ]),
        countOf(db, collectionId, query, publishedOnly, q, totals),
      ]);
      return { rows: rows.slice(0, query.limit).map(fromRaw), more: rows.length > query.limit, total: count };
    },

    /** Entries of a collection by id (published ones only with `publishedOnly`), in no order. */
    async getMany(collectionId: string, ids: string[], opts: { publishedOnly?: boolean } = {}, db: Sql = ctx.sql): Promise<EntryRow[]> {
      const status = opts.publishedOnly ? " AND status = 'published'" : "";
      const raw: RawRow[] = [];
      for (const part of chunks(ids)) {
        for (const row of await db.all<RawRow>(`SELECT ${COLUMNS} FROM entries WHERE collection_id = ? AND id IN (${part.map(() => "?").join(", ")})${status}`, [collectionId, ...part])) raw.push(row);
      }
      return raw.map(fromRaw);
    },

    async insert(row: EntryRow, db: Sql = ctx.sql): Promise<void> {
      await db.run(
        "INSERT INTO entries (id, workspace_id, collection_id, status, data, published_at, created_by, created_at, updated_at) VALUES (?, (SELECT workspace_id FROM collections WHERE id = ?), ?, ?, ?, ?, ?, ?, ?)",
        [row.id, row.collection_id, row.collection_id, row.status, JSON.stringify(row.data), row.published_at, row.created_by, row.created_at, row.updated_at],
      );
    },

    async update(row: EntryRow, db: Sql = ctx.sql): Promise<void> {
      await db.run("UPDATE entries SET status = ?, data = ?, published_at = ?, updated_at = ? WHERE id = ?", [
        row.status,
        JSON.stringify(row.data),
        row.published_at,
        row.updated_at,
        row.id,
      ]);
    },

    /**
     * Deletes an entry; its own relation rows go by cascade, and it leaves every other entry's
     * many-to-many lists (docs/content.md: one-to-many values pointing at it are kept as stored).
     */
    async remove(id: string, db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM entry_relations WHERE entry_id = ? OR target_id = ?", [id, id]);
      await db.run("DELETE FROM entries WHERE id = ?", [id]);
    },

    /** Replaces one many-to-many field's ids, keeping their order. */
    async setRelations(entryId: string, field: string, ids: string[], db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM entry_relations WHERE entry_id = ? AND field = ?", [entryId, field]);
      if (ids.length === 0) return;
      const values = ids.map(() => "(?, ?, ?, ?)").join(", ");
      await db.run(
        `INSERT INTO entry_relations (entry_id, field, target_id, position) VALUES ${values}`,
        ids.flatMap((id, i) => [entryId, field, id, i]),
      );
    },

    /** Many-to-many ids of several entries in one query. */
    async relationsOf(entryIds: string[], db: Sql = ctx.sql): Promise<Map<string, RelationMap>> {
      const out = new Map<string, RelationMap>();
      const rows: { entry_id: string; field: string; target_id: string }[] = [];
      // An entry's rows all come in the chunk that names it, so each keeps its order.
      for (const part of chunks(entryIds)) {
        const sql = `SELECT entry_id, field, target_id FROM entry_relations WHERE entry_id IN (${part.map(() => "?").join(", ")}) ORDER BY entry_id, field, position`;
        for (const row of await db.all<(typeof rows)[number]>(sql, part)) rows.push(row);
      }
      for (const r of rows) {
        let map = out.get(r.entry_id);
        if (!map) out.set(r.entry_id, (map = dataRecord()));
        (map[r.field] ??= []).push(r.target_id);
      }
      return out;
    },

    /** Which of `ids` are entries of `collectionId` (any status). */
    async existing(collectionId: string, ids: string[], db: Sql = ctx.sql): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM entries WHERE collection_id = ? AND id IN (${ids.map(() => "?").join(", ")})`,
        [collectionId, ...ids],
      );
      return new Set(rows.map((r) => r.id));
    },

    async count(collectionId: string, db: Sql = ctx.sql): Promise<number> {
      const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entries WHERE collection_id = ?", [collectionId]);
      return Number(row?.n ?? 0);
    },

    /**
     * Entries per collection and status of a workspace: the counters migration 003 keeps by
     * trigger, one row per (collection, status), so this reads as many rows as there are
     * collections whatever their size.
     */
    async countsByStatus(workspaceId: string, db: Sql = ctx.sql): Promise<{ collection_id: string; status: string; n: number }[]> {
      const rows = await db.all<{ collection_id: string; status: string; n: number | string }>(
        "SELECT collection_id, status, n FROM entry_counts WHERE collection_id IN (SELECT id FROM collections WHERE workspace_id = ?)",
        [workspaceId],
      );
      return rows.map((r) => ({ collection_id: r.collection_id, status: r.status, n: Number(r.n) }));
    },

    /**
     * The `limit` most recently updated entries across `collectionIds`, newest first (ties by id):
     * each collection's newest through its (collection_id, updated_at, id) index, merged, so the
     * cost stays flat however many entries the collections hold.
     */
    /** `publishedOnly`: for a reader that sees no drafts (a key limited to published entries). */
    async recentlyUpdated(collectionIds: string[], limit: number, db: Sql = ctx.sql, publishedOnly = false): Promise<EntryRow[]> {
      const newest: { id: string; collection_id: string; updated_at: string }[] = [];
      // 2 parameters per collection: a few hundred collections per statement stay far below the engines' limits.
      for (let i = 0; i < collectionIds.length; i += 200) {
        const part = collectionIds.slice(i, i + 200);
        const one = `SELECT id, collection_id, updated_at FROM entries WHERE collection_id = ?${publishedOnly ? " AND status = 'published'" : ""} ORDER BY updated_at DESC, id DESC LIMIT ?`;
        const sql = `${part.map((_, j) => `SELECT * FROM (${one}) AS r${j}`).join(" UNION ALL ")} ORDER BY updated_at DESC, id DESC LIMIT ?`;
        newest.push(...(await db.all<(typeof newest)[number]>(sql, [...part.flatMap((id) => [id, limit]), limit])));
      }
      newest.sort((a, b) => (a.updated_at === b.updated_at ? (a.id < b.id ? 1 : -1) : a.updated_at < b.updated_at ? 1 : -1));
      const top = newest.slice(0, limit);
      if (top.length === 0) return [];
      const raw = await db.all<RawRow>(`SELECT ${COLUMNS} FROM entries WHERE id IN (${top.map(() => "?").join(", ")})`, top.map((r) => r.id));
      const byId = new Map(raw.map((r) => [r.id, fromRaw(r)]));
      // An entry deleted between the two reads is simply left out.
      return top.flatMap((r) => byId.get(r.id) ?? []);
    },

    /** Every entry of a collection, a page at a time (definition changes check stored data). */
    async *scan(collectionId: string, pageSize: number, db: Sql = ctx.sql): AsyncGenerator<{ rows: EntryRow[]; relations: Map<string, RelationMap> }> {
      for (let after = ""; ; ) {
        const raw = await db.all<RawRow>(`SELECT ${COLUMNS} FROM entries WHERE collection_id = ? AND id > ? ORDER BY id LIMIT ?`, [collectionId, after, pageSize]);
        if (raw.length === 0) return;
        const rows = raw.map(fromRaw);
        yield { rows, relations: await self.relationsOf(rows.map((r) => r.id), db) };
        after = rows[rows.length - 1]!.id;
      }
    },

    /** How many entries hold a value for a field (a key that is not null, or relation rows). */
    async countValues(collectionId: string, field: string, manyToMany: boolean, db: Sql = ctx.sql): Promise<number> {
      const row = manyToMany
        ? await db.get<{ n: number }>("SELECT COUNT(DISTINCT entry_id) AS n FROM entry_relations WHERE field = ? AND entry_id IN (SELECT id FROM entries WHERE collection_id = ?)", [field, collectionId])
        : db.dialect === "postgresql"
          ? await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entries WHERE collection_id = ? AND COALESCE(jsonb_typeof(data::jsonb -> CAST(? AS TEXT)), 'null') <> 'null'", [collectionId, field])
          : await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM entries WHERE collection_id = ? AND COALESCE(json_type(data, ?), 'null') <> 'null'", [collectionId, jsonPath(field)]);
      return Number(row?.n ?? 0);
    },
    /**
     * How many entries of a collection (drafts and published alike) hold `value` in any of
     * `fields` (single-valued fields stored in `data`, e.g. media): one query, however many fields.
     */
    async countHolding(collectionId: string, fields: string[], value: string, db: Sql = ctx.sql): Promise<number> {
      if (fields.length === 0) return 0;
      const test = db.dialect === "postgresql" ? "(data::jsonb ->> CAST(? AS TEXT)) = ?" : "json_extract(data, ?) = ?";
      const params = fields.flatMap((f) => [db.dialect === "postgresql" ? f : jsonPath(f), value]);
      const row = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM entries WHERE collection_id = ? AND (${fields.map(() => test).join(" OR ")})`, [
        collectionId,
        ...params,
      ]);
      return Number(row?.n ?? 0);
    },
    /**
     * Moves a renamed field's stored values (drafts and published alike: one row per entry) to the
     * new key, or its relation rows to the new field name. `updated_at` stays: no entry was edited.
     */
    async renameField(collectionId: string, from: string, to: string, manyToMany: boolean, db: Sql = ctx.sql): Promise<void> {
      if (manyToMany) {
        await db.run("UPDATE entry_relations SET field = ? WHERE field = ? AND entry_id IN (SELECT id FROM entries WHERE collection_id = ?)", [to, from, collectionId]);
      } else if (db.dialect === "postgresql") {
        await db.run(
          "UPDATE entries SET data = ((data::jsonb - CAST(? AS TEXT)) || jsonb_build_object(CAST(? AS TEXT), data::jsonb -> CAST(? AS TEXT)))::text WHERE collection_id = ? AND (data::jsonb -> CAST(? AS TEXT)) IS NOT NULL",
          [from, to, from, collectionId, from],
        );
      } else {
        // `->` keeps the JSON type (json_extract would turn true into 1).
        await db.run("UPDATE entries SET data = json_set(json_remove(data, ?), ?, data -> ?) WHERE collection_id = ? AND json_type(data, ?) IS NOT NULL", [
          jsonPath(from),
          jsonPath(to),
          jsonPath(from),
          collectionId,
          jsonPath(from),
        ]);
      }
    },
    /** Drops a removed field's stored values (in `data`, or its relation rows). */
    async dropField(collectionId: string, field: string, manyToMany: boolean, db: Sql = ctx.sql): Promise<void> {
      if (manyToMany) {
        await db.run("DELETE FROM entry_relations WHERE field = ? AND entry_id IN (SELECT id FROM entries WHERE collection_id = ?)", [field, collectionId]);
      } else if (db.dialect === "postgresql") {
        await db.run("UPDATE entries SET data = (data::jsonb - CAST(? AS TEXT))::text WHERE collection_id = ?", [field, collectionId]);
      } else {
        await db.run("UPDATE entries SET data = json_remove(data, ?) WHERE collection_id = ?", [jsonPath(field), collectionId]);
      }
    },
  };
  return self;
}

/** Totals already read, by the count's SQL and parameters, for reads that know they are current. */
export interface TotalsMemo {
  get(key: string): number | undefined;
  set(key: string, total: number): void;
}

/** The total of a list query: from `memo` when it holds it, else counted (and remembered there). */
export async function countOf(
  db: Sql,
  collectionId: string,
  query: EntryListQuery,
  publishedOnly: boolean,
  q: { where: string; params: SqlValue[] },
  memo?: TotalsMemo,
): Promise<number> {
  const status = publishedOnly ? "published" : query.status;
  const [sql, params] =
    query.filters.length > 0
      ? [`SELECT COUNT(*) AS n FROM entries ${q.where}`, q.params]
      : status
        ? ["SELECT n FROM entry_counts WHERE collection_id = ? AND status = ?", [collectionId, status]]
        : ["SELECT COALESCE(SUM(n), 0) AS n FROM entry_counts WHERE collection_id = ?", [collectionId]];
  const key = memo && `${sql}\u0000${JSON.stringify(params)}`;
  const known = key === undefined ? undefined : memo!.get(key);
  if (known !== undefined) return known;
  const total = Number((await db.get<{ n: number }>(sql, params))?.n ?? 0);
  if (key !== undefined) memo!.set(key, total);
  return total;
}

/**
 * Ids in slices of at most 1,000 bound parameters: an expanded page names up to 100 entries × 500
 * relations, past SQLite's 32,766 variables (and PostgreSQL's 65,535) in one statement.
 */
function chunks(ids: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += 1000) out.push(ids.slice(i, i + 1000));
  return out;
}
