/**
 * A per-workspace content version, bumped by triggers in the same transaction as any change to
 * collections, entries or their relations — whoever writes (server, CLI, another instance).
 * The delivery cache serves a stored response only while the version it was built at is current,
 * so a committed write is never followed by a stale read, on any instance.
 */
import type { Dialect } from "../sql.js";

const TABLE = `CREATE TABLE content_versions (
  workspace_id TEXT PRIMARY KEY,
  version BIGINT NOT NULL
);`;

const sqlite = () => {
  const trigger = (table: string, op: "INSERT" | "UPDATE" | "DELETE", ws: string) => `
CREATE TRIGGER ${table}_${op.toLowerCase()}_version AFTER ${op} ON ${table} BEGIN
  INSERT INTO content_versions (workspace_id, version) VALUES (${ws}, 1)
  ON CONFLICT (workspace_id) DO UPDATE SET version = version + 1;
END;`;
  const relWs = (row: string) => `(SELECT workspace_id FROM entries WHERE id = ${row}.entry_id)`;
  return [
    TABLE,
    ...["collections", "entries"].flatMap((t) => [
      trigger(t, "INSERT", "NEW.workspace_id"),
      trigger(t, "UPDATE", "NEW.workspace_id"),
      trigger(t, "DELETE", "OLD.workspace_id"),
    ]),
    // A relation row whose entry is already gone (cascade) has no workspace to bump: skip it.
    trigger("entry_relations", "INSERT", relWs("NEW")).replace("BEGIN", `WHEN ${relWs("NEW")} IS NOT NULL BEGIN`),
    trigger("entry_relations", "DELETE", relWs("OLD")).replace("BEGIN", `WHEN ${relWs("OLD")} IS NOT NULL BEGIN`),
  ].join("\n");
};

const postgres = () => `
${TABLE}
CREATE FUNCTION contentsvc_bump_version() RETURNS trigger AS $$
DECLARE ws TEXT;
BEGIN
  IF TG_TABLE_NAME = 'entry_relations' THEN
    SELECT workspace_id INTO ws FROM entries WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.entry_id ELSE NEW.entry_id END);
  ELSIF TG_OP = 'DELETE' THEN
    ws := OLD.workspace_id;
  ELSE
    ws := NEW.workspace_id;
  END IF;
  IF ws IS NOT NULL THEN
    INSERT INTO content_versions (workspace_id, version) VALUES (ws, 1)
    ON CONFLICT (workspace_id) DO UPDATE SET version = content_versions.version + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER collections_version AFTER INSERT OR UPDATE OR DELETE ON collections FOR EACH ROW EXECUTE FUNCTION contentsvc_bump_version();
CREATE TRIGGER entries_version AFTER INSERT OR UPDATE OR DELETE ON entries FOR EACH ROW EXECUTE FUNCTION contentsvc_bump_version();
CREATE TRIGGER entry_relations_version AFTER INSERT OR DELETE ON entry_relations FOR EACH ROW EXECUTE FUNCTION contentsvc_bump_version();
`;

export const contentVersions = (dialect: Dialect) => (dialect === "postgresql" ? postgres() : sqlite());
