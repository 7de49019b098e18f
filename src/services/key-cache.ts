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
import { LRUCache } from "lru-cache";
import type { Principal } from "../core/principal.js";
import { repo } from "../storage/context.js";
import type { ServiceContext } from "./context.js";
import { findApiKey, type KeyCredential } from "./credentials.js";

/** An active key of the workspace, with the principal it authenticates as (built once, shared: read-only). */
export interface WorkspaceKey {
  /** recordKeyUse updates its lastUsedAt in place. */
  credential: KeyCredential;
  principal: Readonly<Extract<Principal, { kind: "key" }>>;
}

/** A key as the cache holds it: with the credentials version it was read at. */
type CachedKey = WorkspaceKey & { version: number };

/** Bounded: beyond this many keys the least recently used is read again from the database. */
const MAX_KEYS = 10_000;

const createKeyCache = () => new LRUCache<string, CachedKey>({ max: MAX_KEYS });

const withPrincipal = (credential: KeyCredential): WorkspaceKey => ({
  credential,
  principal: Object.freeze({ kind: "key", id: credential.id, workspaceId: credential.workspaceId, grants: Object.freeze([...credential.grants]) }),
});

/**
 * The cached key with this hash when it is current for `workspace` (see above), else undefined:
 * no I/O and no allocation, so a cached read with a key costs next to nothing more than without.
 */
export function cachedWorkspaceKey(ctx: ServiceContext, hash: string, workspace: { id: string; credentialsVersion?: number }): WorkspaceKey | undefined {
  if (workspace.credentialsVersion === undefined) return undefined;
  const hit = repo(ctx, createKeyCache).get(hash);
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
  const cache = repo(ctx, createKeyCache);
  if (!key) {
    cache.delete(hash);
    return undefined;
  }
  if (key.workspaceId !== workspace.id) return undefined;
  if (version === undefined) return withPrincipal(key);
  const cached: CachedKey = { ...withPrincipal(key), version };
  cache.set(hash, cached);
  return cached;
}
