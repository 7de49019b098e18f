/**
 * In-process cache of API key hash → key (id, workspace, grants), so the key check on a cached
 * read costs no query. A cached key is trusted only for the workspace it was read in and only
 * while that workspace's credentials version (bumped by triggers in the revoking or re-granting
 * transaction, migration 012, read with the tenant row every request reads anyway) is the one it
 * was read at: a revoked or re-granted key takes effect on the very next request, on every
 * instance, whoever changed it. The version is read BEFORE the key, so a race can only label a
 * newer key row with an older version (a later miss), never the reverse. API keys never expire
 * (spec 3), so there is no expiry to check; unknown hashes are never cached.
 */
import type { ServiceContext, WorkspaceKey } from "./context.js";
import { findApiKey, type KeyCredential } from "./credentials.js";

export type { WorkspaceKey };

const withPrincipal = (credential: KeyCredential): WorkspaceKey => ({
  credential,
  principal: Object.freeze({
    kind: "key",
    id: credential.id,
    workspaceId: credential.workspaceId,
    grants: Object.freeze([...credential.grants]),
    collections: credential.collections && Object.freeze([...credential.collections]),
    publishedOnly: credential.publishedOnly,
  }),
});

/**
 * The cached key with this hash when it is current for `workspace` (see above), else undefined:
 * no I/O and no allocation, so a cached read with a key costs next to nothing more than without.
 */
export function cachedWorkspaceKey(ctx: ServiceContext, hash: string, workspace: { id: string; credentialsVersion?: number }): WorkspaceKey | undefined {
  if (workspace.credentialsVersion === undefined) return undefined;
  const hit = ctx.caches.keys.get(hash);
  return hit && hit.version === workspace.credentialsVersion && hit.credential.workspaceId === workspace.id ? hit : undefined;
}

/**
 * The active key with this hash if it belongs to `workspace`, read from the database (after
 * `cachedWorkspaceKey` missed) and kept in the cache at the workspace's credentials version.
 * Without a credentials version (a resolver that did not read one) nothing is kept.
 */
export async function loadWorkspaceKey(
  ctx: ServiceContext,
  hash: string,
  workspace: { id: string; credentialsVersion?: number },
): Promise<WorkspaceKey | undefined> {
  const version = workspace.credentialsVersion;
  const key = await findApiKey(ctx, hash);
  const cache = ctx.caches.keys;
  if (!key) {
    cache.delete(hash);
    return undefined;
  }
  if (key.workspaceId !== workspace.id) return undefined;
  if (version === undefined) return withPrincipal(key);
  const cached = { ...withPrincipal(key), version };
  cache.set(hash, cached);
  return cached;
}
