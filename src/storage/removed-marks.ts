/**
 * Markers of removed members' refresh tokens in the shared state: the member's token rows go with
 * the member, so a refresh that finds none learns here whether removal is why. Its own module so
 * that the member and token repositories both use it without importing each other.
 */
import type { StorageContext } from "./context.js";

const removedKey = (hash: string) => `dashboard-removed:${hash}`;

/**
 * Marks the live refresh tokens of a member just removed (their rows are gone with the member),
 * each until it would have expired, so that `refresh` can say why it refuses: shared state, so
 * every instance sees it with Redis; without Redis a restart forgets it (the refusal then says
 * "revoked"). Only hashes are stored.
 */
export async function markRemoved(ctx: StorageContext, tokens: { token_hash: string; expires_at: string }[]): Promise<void> {
  const now = ctx.now();
  await Promise.all(tokens.map((t) => ctx.shared.claim(removedKey(t.token_hash), Math.max(1, Date.parse(t.expires_at) - now))));
}

/** True once for a refresh token marked by markRemoved (the marker is spent with it). */
export async function takeRemovedMark(ctx: StorageContext, hash: string): Promise<boolean> {
  if ((await ctx.shared.ttl(removedKey(hash))) <= 0) return false;
  await ctx.shared.remove(removedKey(hash));
  return true;
}
