/**
 * Site files stored once per workspace (content-addressed), deploy pruning and a deploy lease.
 * - site_deploys.layout: 1 = files under `site/<ws>/<deploy>/<sha256>` (deploys made before this
 *   migration, still read where they are), 2 = shared `site/<ws>/sha256/<sha256>`.
 * - site_blobs: the shared files a workspace holds; `stored` turns 1 once the bytes are written,
 *   so a deploy that died mid-write never lets a later one skip writing a file.
 * - site_leases: one deploy at a time per workspace (blob writes and garbage collection never
 *   overlap), with an expiry so a crashed holder does not block the site for long.
 */
export const siteBlobs = () => `
ALTER TABLE site_deploys ADD COLUMN layout INTEGER NOT NULL DEFAULT 1;
CREATE TABLE site_blobs (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  stored INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, sha256)
);
CREATE TABLE site_leases (
  workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  token TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
`;
