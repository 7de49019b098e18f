/**
 * The delivery JSON of published entries, rendered once and kept beside the entry
 * (storage/entry-deliveries.ts): a list read concatenates stored strings instead of parsing and
 * re-serializing every row. A body is only ever used under the fields fingerprint it was rendered
 * for (`shape`), and the same statement that changes an entry drops its body (these triggers),
 * so a stored body is never older than its entry. Its own table, so storing a body is not an
 * entry write (no content version bump, no `updated_at`).
 */
import type { Dialect } from "../sql.js";

const TABLE = `
CREATE TABLE entry_deliveries (
  entry_id TEXT PRIMARY KEY REFERENCES entries(id) ON DELETE CASCADE,
  shape TEXT NOT NULL,
  body TEXT NOT NULL
)`;

// WITHOUT ROWID: a list page looks each body up by entry id, one b-tree search instead of two.
const sqlite = `${TABLE} WITHOUT ROWID;
CREATE TRIGGER entries_delivery_stale AFTER UPDATE ON entries
  BEGIN DELETE FROM entry_deliveries WHERE entry_id = OLD.id; END;
`;

const postgres = `${TABLE};
CREATE FUNCTION contentsvc_entry_deliveries_stale() RETURNS trigger AS $$
BEGIN
  DELETE FROM entry_deliveries d USING old_rows o WHERE d.entry_id = o.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER entries_delivery_stale AFTER UPDATE ON entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_entry_deliveries_stale();
`;

export const entryDeliveries = (dialect: Dialect) => (dialect === "postgresql" ? postgres : sqlite);
