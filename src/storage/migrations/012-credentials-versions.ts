/**
 * A per-workspace credentials version, bumped by triggers in the same transaction as any change
 * to an API key that matters to authentication (revocation, grants, hash, workspace, deletion),
 * whoever writes it (server, CLI, another instance). The in-process key cache
 * (services/key-cache.ts) trusts a cached key only while the version it was read at is current;
 * the version is read with the tenant row every request reads anyway, so a revoked or re-granted
 * key takes effect on the very next request on every instance. last_used_at writes do not bump it.
 */
import type { Dialect } from "../sql.js";

const TABLE = `CREATE TABLE credentials_versions (
  workspace_id TEXT PRIMARY KEY,
  version BIGINT NOT NULL
);`;

/** The columns a cached key depends on: an UPDATE touching only others (last_used_at) is not a change. */
const WATCHED = "grants, revoked_at, key_hash, workspace_id";

// The key's old workspace is the one whose cached keys must go stale (a moved key is looked up
// afresh in its new one, since a cached key is only trusted in the workspace it was read for).
const sqlite = () => {
  const trigger = (name: string, event: string, when = "") => `
CREATE TRIGGER api_keys_${name}_credentials_version AFTER ${event} ON api_keys ${when} BEGIN
  INSERT INTO credentials_versions (workspace_id, version) VALUES (OLD.workspace_id, 1)
  ON CONFLICT (workspace_id) DO UPDATE SET version = version + 1;
END;`;
  return [
    TABLE,
    trigger(
      "update",
      `UPDATE OF ${WATCHED}`,
      "WHEN OLD.grants IS NOT NEW.grants OR OLD.revoked_at IS NOT NEW.revoked_at OR OLD.key_hash IS NOT NEW.key_hash OR OLD.workspace_id IS NOT NEW.workspace_id",
    ),
    trigger("delete", "DELETE"),
  ].join("\n");
};

const postgres = () => `
${TABLE}
CREATE FUNCTION contentsvc_bump_credentials_version() RETURNS trigger AS $$
BEGIN
  INSERT INTO credentials_versions (workspace_id, version) VALUES (OLD.workspace_id, 1)
  ON CONFLICT (workspace_id) DO UPDATE SET version = credentials_versions.version + 1;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER api_keys_update_credentials_version AFTER UPDATE OF ${WATCHED} ON api_keys FOR EACH ROW
  WHEN (OLD.grants IS DISTINCT FROM NEW.grants OR OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
     OR OLD.key_hash IS DISTINCT FROM NEW.key_hash OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id)
  EXECUTE FUNCTION contentsvc_bump_credentials_version();
CREATE TRIGGER api_keys_delete_credentials_version AFTER DELETE ON api_keys FOR EACH ROW
  EXECUTE FUNCTION contentsvc_bump_credentials_version();
`;

export const credentialsVersions = (dialect: Dialect) => (dialect === "postgresql" ? postgres() : sqlite());
