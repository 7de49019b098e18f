/**
 * Ephemeral state shared by every instance of the service: throttles (last_used_at) and rate-limit
 * counters. In-process by default; Redis when configured, so several instances behave as one
 * (DESIGN §3). Cross-instance invalidation is not here: PostgreSQL pushes it (version-push.ts).
 */
export interface SharedState {
  /**
   * Sets `key` only if it is not set, for `ttlMs`. True when this caller set it (it "won").
   * Used to do something at most once per window across the cluster.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Increments a counter that expires `windowMs` after its first increment; returns the new count. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /**
   * Adds `by` (may be negative) to a counter and sets it to expire `ttlMs` from now, so it lives
   * as long as it keeps changing; returns the new count. A count that falls to 0 or below is removed.
   */
  add(key: string, by: number, ttlMs: number): Promise<number>;
  /** Milliseconds until `key` (a claim or a counter) expires; 0 when it is not set. */
  ttl(key: string): Promise<number>;
  /** Removes claims and counters. */
  remove(...keys: string[]): Promise<void>;
  /** Rejects when a remote store (Redis) is unreachable; absent for the in-process one. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/** Single-process implementation with lazy expiry; bounded by periodic sweeps. */
export function createMemorySharedState(now: () => number = Date.now): SharedState {
  const claims = new Map<string, number>();
  const counters = new Map<string, { count: number; expires: number }>();
  const sweep = () => {
    const t = now();
    for (const [k, exp] of claims) if (exp <= t) claims.delete(k);
    for (const [k, c] of counters) if (c.expires <= t) counters.delete(k);
  };
  const timer = setInterval(sweep, 60_000);
  timer.unref();
  return {
    async claim(key, ttlMs) {
      const t = now();
      const exp = claims.get(key);
      if (exp !== undefined && exp > t) return false;
      claims.set(key, t + ttlMs);
      return true;
    },
    async hit(key, windowMs) {
      const t = now();
      let c = counters.get(key);
      if (!c || c.expires <= t) counters.set(key, (c = { count: 0, expires: t + windowMs }));
      c.count++;
      return { count: c.count, resetMs: c.expires - t };
    },
    async add(key, by, ttlMs) {
      const t = now();
      const c = counters.get(key);
      const count = (c && c.expires > t ? c.count : 0) + by;
      if (count <= 0) counters.delete(key);
      else counters.set(key, { count, expires: t + ttlMs });
      return count;
    },
    async ttl(key) {
      const t = now();
      const expires = Math.max(claims.get(key) ?? 0, counters.get(key)?.expires ?? 0);
      return Math.max(0, expires - t);
    },
    async remove(...keys) {
      for (const key of keys) {
        claims.delete(key);
        counters.delete(key);
      }
    },
    async close() {
      clearInterval(timer);
      claims.clear();
      counters.clear();
    },
  };
}
