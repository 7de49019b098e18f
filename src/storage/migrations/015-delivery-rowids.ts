/**
 * SQLite only: stored delivery JSON moves to a table keyed by the entry's rowid. As a
 * `WITHOUT ROWID` table (migration 013) each row was a b-tree key, kept whole on its page only up
 * to ~1,000 bytes (4 KiB pages): a longer body overflowed, and every search through such keys read
 * the overflow pages; the page statement of entries of ~1.3 KB took five times as long as that of
 * 400-byte entries (docs/benchmarks.md). In a rowid table a row stays on its page up to nearly the
 * page size, a longer one costs one overflow page when it is read, and the list joins it by the
 * integer its covering index already holds.
 *
 * `entry_rowid` is the rowid the entry had when its body was stored. An entry's rowid is not an
 * alias column, so VACUUM may renumber it: the join also requires `entry_id`, and a change to an
 * entry drops its body by `entry_id`, so a renumbered rowid finds no body rather than another's.
 * The table holds only derived data: it is recreated empty and refilled by the next reads.
 * PostgreSQL keeps 013's table: it has no rowids, and its rows live in a heap apart from the index.
 */
import type { Dialect } from "../sql.js";

const sqlite = `
DROP TRIGGER entries_delivery_stale;
DROP TABLE entry_deliveries;
CREATE TABLE entry_deliveries (
  entry_rowid INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL UNIQUE REFERENCES entries(id) ON DELETE CASCADE,
  shape TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE TRIGGER entries_delivery_stale AFTER UPDATE ON entries
  BEGIN DELETE FROM entry_deliveries WHERE entry_id = OLD.id; END;
`;

export const deliveryRowids = (dialect: Dialect) => (dialect === "postgresql" ? "SELECT 1" : sqlite);
