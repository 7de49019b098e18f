/**
 * Entry counts per collection and status, kept by triggers in the writing transaction, so an
 * unfiltered list answers `meta.total` with one primary-key read instead of COUNT(*) over the
 * collection (which grows with it: docs/benchmarks.md). Rows of a deleted collection are left
 * behind harmlessly (collection ids are never reused).
 */
import type { Dialect } from "../sql.js";

const TABLE = `CREATE TABLE entry_counts (
  collection_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (collection_id, status)
);
INSERT INTO entry_counts (collection_id, status, n) SELECT collection_id, status, COUNT(*) FROM entries GROUP BY collection_id, status;`;

const sqlite = () => {
  const add = (row: string, delta: number) =>
    `INSERT INTO entry_counts (collection_id, status, n) VALUES (${row}.collection_id, ${row}.status, ${delta})
     ON CONFLICT (collection_id, status) DO UPDATE SET n = n + (${delta});`;
  return `${TABLE}
CREATE TRIGGER entries_count_insert AFTER INSERT ON entries BEGIN ${add("NEW", 1)} END;
CREATE TRIGGER entries_count_delete AFTER DELETE ON entries BEGIN ${add("OLD", -1)} END;
CREATE TRIGGER entries_count_update AFTER UPDATE OF status, collection_id ON entries
  WHEN OLD.status IS NOT NEW.status OR OLD.collection_id IS NOT NEW.collection_id
  BEGIN ${add("OLD", -1)} ${add("NEW", 1)} END;`;
};

const postgres = () => `${TABLE}
CREATE FUNCTION contentsvc_count_entries() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO entry_counts (collection_id, status, n) VALUES (OLD.collection_id, OLD.status, -1)
    ON CONFLICT (collection_id, status) DO UPDATE SET n = entry_counts.n - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO entry_counts (collection_id, status, n) VALUES (NEW.collection_id, NEW.status, 1)
    ON CONFLICT (collection_id, status) DO UPDATE SET n = entry_counts.n + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER entries_count_insert_delete AFTER INSERT OR DELETE ON entries FOR EACH ROW EXECUTE FUNCTION contentsvc_count_entries();
CREATE TRIGGER entries_count_update AFTER UPDATE OF status, collection_id ON entries FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.collection_id IS DISTINCT FROM NEW.collection_id)
  EXECUTE FUNCTION contentsvc_count_entries();
`;

export const entryCounts = (dialect: Dialect) => (dialect === "postgresql" ? postgres() : sqlite());
