/**
 * Stored delivery JSON of entries (migrations 013 and 015): a page of a list read is the page's ids and,
 * where one is stored for the collection's current shape, each entry's rendered body. A body is
 * stored only while the entry still holds exactly the values it was rendered from, checked in the
 * storing statement itself; any later change to the entry drops it in the changing statement
 * (trigger). So a stored body read under the current shape is always the entry's current JSON.
 */
import type { EntryListQuery } from "../core/entry-query.js";
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";
import { buildListQuery } from "./entry-query.js";
import { countOf, type TotalsMemo } from "./entries.js";

/** An entry row exactly as stored (`data` unparsed: storing a body compares it). */
export interface RawEntryRow {
  id: string;
  status: string;
  data: string;
  published_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const RAW_COLUMNS = "id, status, data, published_at, created_by, created_at, updated_at";

export function createEntryDeliveryRepo(ctx: StorageContext) {
  return {
    /**
     * One page of published entries in the query's order: ids, stored bodies of `shape` (null
     * where none is stored for it), whether rows follow, and the total (from `totals` when known).
     */
    async page(collectionId: string, query: EntryListQuery, shape: string, totals?: TotalsMemo, db: Sql = ctx.sql) {
      const q = buildListQuery(db.dialect, collectionId, query, true);
      // SQLite joins by the rowid the covering index already holds (migration 015); the entry id
      // must match too, since VACUUM may renumber rowids.
      const join = db.dialect === "sqlite" ? "entry_rowid = entries.rowid AND entry_id = entries.id" : "entry_id = entries.id";
      const [rows, count] = await Promise.all([
        query.limit === 0
          ? Promise.resolve([])
          : db.all<{ id: string; body: string | null }>(
              // Unqualified names in the list SQL are entries' columns: entry_deliveries shares none.
              `SELECT id, body FROM entries LEFT JOIN entry_deliveries ON ${join} AND shape = ? ${q.where}${q.keyset} ${q.orderBy} LIMIT ? OFFSET ?`,
              [shape, ...q.params, ...q.keysetParams, ...q.orderParams, query.limit + 1, query.offset],
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
     * Stores `body` as the JSON of `row` under `shape`, only if the entry still holds exactly
     * `row`'s values (a write that committed since the read wins; PostgreSQL: FOR SHARE waits for
     * a write in progress and re-checks its result). Returns whether it was stored.
     */
    async store(row: RawEntryRow, shape: string, body: string, db: Sql = ctx.sql): Promise<boolean> {
      const unchanged = "WHERE id = ? AND status = ? AND data = ? AND published_at IS NOT DISTINCT FROM ? AND created_by = ? AND created_at = ? AND updated_at = ?";
      const values = [shape, body, row.id, row.status, row.data, row.published_at, row.created_by, row.created_at, row.updated_at];
      const { changes } = await db.run(
        db.dialect === "postgresql"
          ? `INSERT INTO entry_deliveries (entry_id, shape, body)
             SELECT id, CAST(? AS TEXT), CAST(? AS TEXT) FROM entries ${unchanged} FOR SHARE
             ON CONFLICT (entry_id) DO UPDATE SET shape = excluded.shape, body = excluded.body`
          : // REPLACE also drops a row left under this rowid or this id by a VACUUM's renumbering.
            `INSERT OR REPLACE INTO entry_deliveries (entry_rowid, entry_id, shape, body)
             SELECT rowid, id, CAST(? AS TEXT), CAST(? AS TEXT) FROM entries ${unchanged}`,
        values,
      );
      return changes > 0;
    },
  };
}
