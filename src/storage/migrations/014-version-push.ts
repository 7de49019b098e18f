/**
 * PostgreSQL only: every change to what the tenant resolver reads (workspaces.byHost: the
 * workspace row, its hosts, its content and credentials versions) is announced with pg_notify
 * on the `contentsvc_versions` channel, delivered when the writing transaction commits. Each
 * instance LISTENs (storage/version-push.ts) and drops its in-process copy, so a public read
 * needs no round trip. Payload `w:<workspace id>` for a version bump (identical payloads of one
 * transaction are delivered once), `t` for any change to workspaces or hosts (flush everything).
 * SQLite has no push: it keeps reading the versions with the tenant, which costs no round trip.
 */
import type { Dialect } from "../sql.js";

export const VERSIONS_CHANNEL = "contentsvc_versions";

const postgres = `
CREATE FUNCTION contentsvc_notify_version() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('${VERSIONS_CHANNEL}', 'w:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.workspace_id ELSE NEW.workspace_id END));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER content_versions_notify AFTER INSERT OR UPDATE OR DELETE ON content_versions FOR EACH ROW EXECUTE FUNCTION contentsvc_notify_version();
CREATE TRIGGER credentials_versions_notify AFTER INSERT OR UPDATE OR DELETE ON credentials_versions FOR EACH ROW EXECUTE FUNCTION contentsvc_notify_version();

CREATE FUNCTION contentsvc_notify_tenants() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('${VERSIONS_CHANNEL}', 't');
  RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER workspaces_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspaces FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_notify_tenants();
CREATE TRIGGER workspace_hosts_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspace_hosts FOR EACH STATEMENT EXECUTE FUNCTION contentsvc_notify_tenants();
`;

export const versionPush = (dialect: Dialect) => (dialect === "postgresql" ? postgres : "SELECT 1;");
