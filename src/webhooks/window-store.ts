/**
 * Where coalescing/debounce windows (spec 6.7) are recorded. Every store (in process here, Redis in
 * redis-windows.ts, and any other) implements `WindowStore` of types.ts, the one interface.
 *
 * Decisions:
 * - A store records only who owns each window; the timers, the re-arming, and the one fire path
 *   are shared by every store (debounce.ts). Each instance keeps the value it put in a window and
 *   arms its own trailing timer; when that timer runs out, `take` decides whether this instance
 *   sends: it does exactly when it put the last value in the window (spec 6.7.3).
 * - Opening and extending a window are the same call (`put`): the window closes `delayMs` after
 *   the latest one, and the latest `put` anywhere owns it.
 * - A store that cannot reach its shared state answers `take` with true (send here): a possible
 *   duplicate, never a loss.
 */
import type { WindowStoreFactory } from "./types.js";

/** Windows per process: every instance owns what it put in (spec 6.6 Persistence: in memory). */
export const memoryWindowStore: WindowStoreFactory = () => ({ put() {}, take: () => true });
