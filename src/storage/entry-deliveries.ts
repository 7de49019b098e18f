/**
 * Stored delivery JSON of published entries (migrations 013 and 015): a page of a delivery
 * list is the page's ids and each entry's rendered body, joined. Bodies are written by entry writes
 * in the writing transaction (an entry's when it is created or updated while published) and by the
 * background filler (services/delivery-backfill.ts: entries with none under the current fields,
 * after an upgrade or a change of the fields), never by a read. Any change to an entry row drops
 * its body in the changing statement (trigger), and a body is used only under the fields
 * fingerprint it was rendered for, so a stored body read under the current definition is always
 * the entry's current JSON. An entry without one is rendered from its row by the read and not stored.
 */
import { createHash } from "node:crypto";
import type { EntryListQuery } from "../core/entry-query.js";
import type { StorageContext } from "./context.js";
import type { StoredCollection } from "./collections.js";
import type { Sql } from "./sql.js";
import { buildListQuery } from "./entry-query.js";
import { countOf, toEntry, type EntryRow, type TotalsMemo } from "./entries.js";
import { parseObjectColumn } from "./json-column.js";

/** A published entry row exactly as stored (`data` unparsed). */
export interface RawEntryRow {
  id: string;
  data: string;
  published_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const RAW_COLUMNS = "id, data, published_at, created_by, created_at, updated_at";

// Definitions are cached per content version (services/delivery-cache.ts), so most lookups hit here.
const fingerprints = new WeakMap<Pick<StoredCollection, "fields">, string>();

/**
 * A short fingerprint of what the delivery JSON depends on besides the entry: the fields' names and
 * types, in order. Bodies stored by earlier versions carry it too: it must not change.
 */
export function fieldsFingerprint(collection: Pick<StoredCollection, "fields">): string {
  let fingerprint = fingerprints.get(collection);
  if (fingerprint === undefined) {
    const fields = JSON.stringify(collection.fields.map((f) => [f.name, f.type]));
    fingerprint = createHash("sha256").update(fields).digest("base64url").slice(0, 22);
    fingerprints.set(collection, fingerprint);
  }
  return fingerprint;
}

/** Whether entries of `collection` have stored bodies: many-to-many ids live in other rows, whose changes no trigger here sees. */
export function keepsDeliveryJson(collection: Pick<StoredCollection, "fields">): boolean {
  return !collection.fields.some((f) => f.type === "relations");
}

/** The delivery JSON of one published entry row: what serializing services/entries.ts's entry gives. */
export function renderDelivery(collection: StoredCollection, row: RawEntryRow): string {
  const entry: EntryRow = { ...row, collection_id: collection.id, status: "published", data: parseObjectColumn(row.data) };
  return JSON.stringify(toEntry(collection, entry, undefined));
}

// The fields fingerprint lives in the column `shape`: the column keeps its first name so instances
// of the previous version keep working during an upgrade.

export function createEntryDeliveryRepo(ctx: StorageContext) {
  const put = (db: Sql, id: string, fingerprint: string, body: string) =>
    db.run(
      db.dialect === "postgresql"
        ? `INSERT INTO entry_deliveries (entry_id, shape, body) VALUES (?, ?, ?)
           ON CONFLICT (entry_id) DO UPDATE SET shape = excluded.shape, body = excluded.body`
        : // REPLACE also drops a row left under this rowid or this id by a VACUUM's renumbering.
          `INSERT OR REPLACE INTO entry_deliveries (entry_rowid, entry_id, shape, body) SELECT rowid, id, ?, ? FROM entries WHERE id = ?`,
      db.dialect === "postgresql" ? [id, fingerprint, body] : [fingerprint, body, id],
    );

  return {
    /**
     * One page of published entries in the query's order: ids, stored bodies of `fingerprint`
     * (null where none is stored for it), whether rows follow, and the total (from `totals` when known).
     */
    async page(collectionId: string, query: EntryListQuery, fingerprint: string, totals?: TotalsMemo, db: Sql = ctx.sql) {
      const q = buildListQuery(db.dialect, collectionId, query, true);
      // SQLite joins by the rowid the covering index already holds (migration 015); the entry id
      // must match too, since VACUUM may renumber rowids.
      const join = joinOn(db);
      const [rows, count] = await Promise.all([
        query.limit === 0
          ? Promise.resolve([])
          : db.all<{ id: string; body: string | null }>(
              // Unqualified names in the list SQL are entries' columns: entry_deliveries shares none.
              `SELECT id, body FROM entries LEFT JOIN entry_deliveries ON ${join} AND shape = ? ${q.where}${q.keyset} ${q.orderBy} LIMIT ? OFFSET ?`,
              [fingerprint, ...q.params, ...q.keysetParams, ...q.orderParams, query.limit + 1, query.offset],
            ),
        countOf(db, collectionId, query, true, q, totals),
      ]);
      return { rows: rows.slice(0, query.limit), more: rows.length > query.limit, total: count };
    },

    /** Published entries by id, as stored, in no order. */
    async rows(collectionId: string, ids: string[], db: Sql = ctx.sql): Promise<RawEntryRow[]> {
      if (ids.length === 0) return [];
      return db.all<RawEntryRow>(
        `SELECT ${RAW_COLUMNS} FROM entries WHERE collection_id = ? AND id IN (${ids.map(() => "?").join(", ")}) AND status = 'published'`,
        [collectionId, ...ids],
      );
    },

    /**
     * In the transaction that just wrote entry `row` (its `data` as stored): stores its delivery
     * JSON when it is published, in a collection that keeps bodies. An unpublished entry has none
     * (the update dropped it).
     */
    async write(collection: StoredCollection, row: EntryRow, tx: Sql): Promise<void> {
      if (row.status !== "published" || !keepsDeliveryJson(collection)) return;
      // Rendered from the data as the row stores it, so the body is what a read renders from it.
      const raw: RawEntryRow = { ...row, data: JSON.stringify(row.data) };
      await put(tx, row.id, fieldsFingerprint(collection), renderDelivery(collection, raw));
    },

    /**
     * Of the published entries of `collectionId` with ids after `after` (at most `scan` of them, in
     * id order), those with no body stored under `fingerprint`; `last` is the last id looked at
     * (undefined when none was left). Bounded, so one statement never walks a whole large collection.
     */
    async missing(collectionId: string, fingerprint: string, after: string, scan: number, db: Sql = ctx.sql) {
      const rows = await db.all<{ id: string; stored: string | null }>(
        `SELECT entries.id AS id, entry_deliveries.entry_id AS stored FROM entries LEFT JOIN entry_deliveries ON ${joinOn(db)} AND shape = ?
         WHERE collection_id = ? AND status = 'published' AND entries.id > ? ORDER BY entries.id LIMIT ?`,
        [fingerprint, collectionId, after, scan],
      );
      return { ids: rows.filter((r) => r.stored === null).map((r) => r.id), last: rows[rows.length - 1]?.id };
    },

    /**
     * In a transaction of its own: stores the body of each entry of `ids` that is still published
     * and still has none under `collection`'s fields, rendered from the row as this transaction reads
     * it. A change to a row after that read drops the body again (trigger); on PostgreSQL the rows
     * are share-locked until commit, and a row another transaction is writing is skipped (that write
     * stores its own body), so the filler never waits on a writer nor deadlocks with one. Rows are
     * locked and stored in id order, so two instances filling the same ids never deadlock. A row
     * that cannot be rendered is left without a body (reads render it as they can) and returned in
     * `failed`, so one damaged row does not keep the rest of its batch from being stored.
     */
    async fill(collection: StoredCollection, ids: string[], tx: Sql): Promise<{ stored: number; failed: { id: string; error: unknown }[] }> {
      const failed: { id: string; error: unknown }[] = [];
      if (ids.length === 0 || !keepsDeliveryJson(collection)) return { stored: 0, failed };
      const fingerprint = fieldsFingerprint(collection);
      const lock = tx.dialect === "postgresql" ? " FOR SHARE OF entries SKIP LOCKED" : "";
      const rows = await tx.all<RawEntryRow>(
        `SELECT ${RAW_COLUMNS.split(", ").map((c) => `entries.${c}`).join(", ")} FROM entries LEFT JOIN entry_deliveries ON ${joinOn(tx)} AND shape = ?
         WHERE collection_id = ? AND entries.id IN (${ids.map(() => "?").join(", ")}) AND status = 'published' AND entry_deliveries.entry_id IS NULL ORDER BY entries.id${lock}`,
        [fingerprint, collection.id, ...ids],
      );
      let stored = 0;
      for (const row of rows) {
        let body: string;
        try {
          body = renderDelivery(collection, row);
        } catch (error) {
          failed.push({ id: row.id, error });
          continue;
        }
        await put(tx, row.id, fingerprint, body);
        stored++;
      }
      return { stored, failed };
    },
  };
}

/** The join of an entry to its stored body: by rowid too on SQLite (migration 015), which VACUUM may renumber. */
function joinOn(db: Sql): string {
  return db.dialect === "sqlite" ? "entry_rowid = entries.rowid AND entry_id = entries.id" : "entry_id = entries.id";
}
