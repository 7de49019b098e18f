/**
 * Resolving a presented bearer credential (already hashed: only hashes are stored, spec 2.1) into
 * what it names, for the one authentication path (http/middleware/auth.ts), and recording a key's
 * use without a write per request.
 */
import { KEY_LAST_USED_INTERVAL_MS } from "../core/lifetimes.js";
import type { AccountCredential, DashboardCredential, KeyCredential } from "../storage/credentials.js";
import type { ServiceContext } from "./context.js";

export type { AccountCredential, DashboardCredential, KeyCredential };

/** The active (unrevoked) API key with this hash, of any workspace. */
export function findApiKey(ctx: ServiceContext, hash: string): Promise<KeyCredential | undefined> {
  return ctx.db.credentials.apiKey(hash);
}

/** The dashboard token (access or refresh) with this hash, expired or not: the caller checks. */
export function findDashboardToken(ctx: ServiceContext, hash: string): Promise<DashboardCredential | undefined> {
  return ctx.db.credentials.dashboardToken(hash);
}

/** The account session with this hash and its end user, expired or inactive or not: the caller checks. */
export function findAccountSession(ctx: ServiceContext, hash: string): Promise<AccountCredential | undefined> {
  return ctx.db.credentials.accountSession(hash);
}

/** A key as recordKeyUse notes its use: `lastUsedMs` is `lastUsedAt` parsed, kept on a cached key. */
export type KeyUse = Pick<KeyCredential, "id" | "lastUsedAt"> & { lastUsedMs?: number };

/**
 * Records last_used_at without a write per request (spec 2.1, 8). Three layers: the row just read
 * says it is recent (no I/O at all); else one instance wins a cluster-wide claim for the interval
 * (ctx.shared, Redis when configured); and the UPDATE itself only moves a value older than the
 * interval, so even instances that share no state write at most once per interval. Fire-and-forget.
 * Sets `key.lastUsedAt` to `now` when it was older than the interval.
 */
export function recordKeyUse(ctx: ServiceContext, key: KeyUse, now: number): void {
  // Parsed once per key object: a cached key is checked on every request it authenticates.
  const last = (key.lastUsedMs ??= key.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(key.lastUsedAt));
  if (now - last < KEY_LAST_USED_INTERVAL_MS) return;
  // A cached key (services/key-cache.ts) is not re-read: note the use on it, so this instance
  // does not claim again on every request until the interval has passed.
  key.lastUsedAt = new Date(now).toISOString();
  key.lastUsedMs = now;
  void ctx.shared
    .claim(`key-used:${key.id}`, KEY_LAST_USED_INTERVAL_MS)
    .then((won) =>
      won ? ctx.db.credentials.touchKey(key.id, new Date(now).toISOString(), new Date(now - KEY_LAST_USED_INTERVAL_MS).toISOString()) : undefined,
    )
    .catch((error: unknown) => ctx.logger.warn("could not record last_used_at:", (error as Error).message));
}
