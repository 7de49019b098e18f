/**
 * PostgreSQL only: the content-version and entry-count triggers of migrations 002 and 003 become
 * statement-level triggers over transition tables. Row-level triggers that update the same
 * counter row once per inserted entry are quadratic inside one transaction under MVCC (a bulk
 * import of 200,000 entries never finished); one grouped upsert per statement is linear.
 * SQLite updates in place, so its row triggers stay.
 */
import type { Dialect } from "../sql.js";

const postgres = `
DROP TRIGGER collections_version ON collections;
DROP TRIGGER entries_version ON entries;
DROP TRIGGER entry_relations_version ON entry_relations;
DROP TRIGGER entries_count_insert_delete ON entries;
DROP TRIGGER entries_count_update ON entries;
DROP FUNCTION contentsvc_bump_version();
DROP FUNCTION contentsvc_count_entries();

CREATE FUNCTION contentsvc_bump_versions(ws TEXT[]) RETURNS void AS $$
  INSERT INTO content_versions (workspace_id, version)
  SELECT DISTINCT w, 1 FROM unnest(ws) AS w WHERE w IS NOT NULL
  ON CONFLICT (workspace_id) DO UPDATE SET version = content_versions.version + 1;
$$ LANGUAGE sql;

-- For collections and entries: the workspaces of the rows a statement touched.
CREATE FUNCTION contentsvc_version_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM contentsvc_bump_versions(ARRAY(SELECT workspace_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM contentsvc_bump_versions(ARRAY(SELECT workspace_id FROM old_rows));
  ELSE
    PERFORM contentsvc_bump_versions(ARRAY(SELECT workspace_id FROM new_rows UNION SELECT workspace_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

-- For entry_relations: the workspace is the owning entry's (gone already on a cascade: skipped).
CREATE FUNCTION contentsvc_version_relations() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM contentsvc_bump_versions(ARRAY(SELECT e.workspace_id FROM new_rows r JOIN entries e ON e.id = r.entry_id));
  ELSE
    PERFORM contentsvc_bump_versions(ARRAY(SELECT e.workspace_id FROM old_rows r JOIN entries e ON e.id = r.entry_id));
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE FUNCTION contentsvc_count_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO entry_counts (collection_id, status, n)
    SELECT collection_id, status, -COUNT(*) FROM old_rows GROUP BY collection_id, status
    ON CONFLICT (collection_id, status) DO UPDATE SET n = entry_counts.n + EXCLUDED.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO entry_counts (collection_id, status, n)
    SELECT collection_id, status, COUNT(*) FROM new_rows GROUP BY collection_id, status
    ON CONFLICT (collection_id, status) DO UPDATE SET n = entry_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER collections_version_ins AFTER INSERT ON collections REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER collections_version_upd AFTER UPDATE ON collections REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER collections_version_del AFTER DELETE ON collections REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER entries_version_ins AFTER INSERT ON entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER entries_version_upd AFTER UPDATE ON entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER entries_version_del AFTER DELETE ON entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_rows();
CREATE TRIGGER entry_relations_version_ins AFTER INSERT ON entry_relations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_relations();
CREATE TRIGGER entry_relations_version_del AFTER DELETE ON entry_relations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_version_relations();
CREATE TRIGGER entries_count_ins AFTER INSERT ON entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_count_rows();
CREATE TRIGGER entries_count_upd AFTER UPDATE ON entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_count_rows();
CREATE TRIGGER entries_count_del AFTER DELETE ON entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_count_rows();
`;

export const statementTriggers = (dialect: Dialect) => (dialect === "postgresql" ? postgres : "SELECT 1;");
