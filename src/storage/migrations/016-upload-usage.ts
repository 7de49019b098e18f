/**
 * Bytes each workspace stores in media assets and in files uploaded with form submissions, kept by
 * triggers in the writing transaction (like entry_counts), so the upload quotas are checked with
 * one primary-key read and every way of deleting (an asset, a submission, a form, a file dropped
 * from a submission) frees its space without the code remembering to.
 */
import type { Dialect } from "../sql.js";

const TABLE = `CREATE TABLE upload_usage (
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, kind)
);`;

const sqlite = () => {
  const files = (row: string) => `(SELECT COALESCE(SUM(json_extract(value, '$.size')), 0) FROM json_each(${row}.files))`;
  const add = (workspace: string, kind: string, delta: string) =>
    `INSERT INTO upload_usage (workspace_id, kind, bytes) VALUES (${workspace}, '${kind}', ${delta})
     ON CONFLICT (workspace_id, kind) DO UPDATE SET bytes = bytes + excluded.bytes;`;
  return `${TABLE}
INSERT INTO upload_usage (workspace_id, kind, bytes) SELECT workspace_id, 'media', SUM(size) FROM media GROUP BY workspace_id;
INSERT INTO upload_usage (workspace_id, kind, bytes)
  SELECT s.workspace_id, 'submissions', SUM(json_extract(f.value, '$.size')) FROM submissions s, json_each(s.files) f GROUP BY s.workspace_id;
CREATE TRIGGER media_usage_insert AFTER INSERT ON media BEGIN ${add("NEW.workspace_id", "media", "NEW.size")} END;
CREATE TRIGGER media_usage_delete AFTER DELETE ON media BEGIN ${add("OLD.workspace_id", "media", "-OLD.size")} END;
CREATE TRIGGER submissions_usage_insert AFTER INSERT ON submissions WHEN NEW.files <> '[]' BEGIN ${add("NEW.workspace_id", "submissions", files("NEW"))} END;
CREATE TRIGGER submissions_usage_delete AFTER DELETE ON submissions WHEN OLD.files <> '[]' BEGIN ${add("OLD.workspace_id", "submissions", `-${files("OLD")}`)} END;
CREATE TRIGGER submissions_usage_update AFTER UPDATE OF files ON submissions WHEN OLD.files IS NOT NEW.files
  BEGIN ${add("OLD.workspace_id", "submissions", `-${files("OLD")}`)} ${add("NEW.workspace_id", "submissions", files("NEW"))} END;`;
};

// PostgreSQL: statement-level triggers over transition tables, one grouped upsert per statement
// (as migration 005 does for entry_counts): row triggers updating one counter row are quadratic
// inside a bulk delete under MVCC. Zero deltas (a submission without files) touch no row, so
// submissions without files never lock their workspace's counter.
const upsert = (kind: string, select: string) =>
  `INSERT INTO upload_usage (workspace_id, kind, bytes) SELECT workspace_id, '${kind}', SUM(b) FROM (${select}) d
    GROUP BY workspace_id HAVING SUM(b) <> 0
    ON CONFLICT (workspace_id, kind) DO UPDATE SET bytes = upload_usage.bytes + EXCLUDED.bytes;`;

const postgres = () => `${TABLE}
CREATE FUNCTION contentsvc_files_bytes(files TEXT) RETURNS BIGINT AS $$
  SELECT COALESCE(SUM((f ->> 'size')::BIGINT), 0) FROM jsonb_array_elements(files::jsonb) f
$$ LANGUAGE sql IMMUTABLE;
INSERT INTO upload_usage (workspace_id, kind, bytes) SELECT workspace_id, 'media', SUM(size) FROM media GROUP BY workspace_id;
INSERT INTO upload_usage (workspace_id, kind, bytes) SELECT workspace_id, 'submissions', SUM(contentsvc_files_bytes(files)) FROM submissions GROUP BY workspace_id;
CREATE FUNCTION contentsvc_media_usage() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${upsert("media", "SELECT workspace_id, size AS b FROM new_rows")}
  ELSE ${upsert("media", "SELECT workspace_id, -size AS b FROM old_rows")}
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER media_usage_ins AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_media_usage();
CREATE TRIGGER media_usage_del AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_media_usage();
CREATE FUNCTION contentsvc_submission_usage() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${upsert("submissions", "SELECT workspace_id, contentsvc_files_bytes(files) AS b FROM new_rows")}
  ELSIF TG_OP = 'DELETE' THEN ${upsert("submissions", "SELECT workspace_id, -contentsvc_files_bytes(files) AS b FROM old_rows")}
  ELSE ${upsert(
    "submissions",
    "SELECT workspace_id, contentsvc_files_bytes(files) AS b FROM new_rows UNION ALL SELECT workspace_id, -contentsvc_files_bytes(files) FROM old_rows",
  )}
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER submissions_usage_ins AFTER INSERT ON submissions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_submission_usage();
CREATE TRIGGER submissions_usage_upd AFTER UPDATE ON submissions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_submission_usage();
CREATE TRIGGER submissions_usage_del AFTER DELETE ON submissions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_submission_usage();
`;

export const uploadUsage = (dialect: Dialect) => (dialect === "postgresql" ? postgres() : sqlite());
