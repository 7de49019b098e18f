/**
 * Where coalescing/debounce windows (spec 6.7) are recorded: the one interface every window store
 * implements (in process, Redis, and any other).
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
import type { DispatcherClock, DispatcherLogger } from "./types.js";

/** The two window stages of spec 6.7: content.updated coalescing, then a webhook's debounce_ms. */
export type WindowStage = "coalesce" | "debounce";

/**
 * Ownership of the windows of one stage.
 *
 * @example
 * // A store where this process always owns its windows (what "memory" uses):
 * const store: WindowStore<Event> = { put() {}, take: () => true };
 */
export interface WindowStore<V> {
  /**
   * This instance put `value` in the window `key` (opening it, or restarting it); it closes
   * `delayMs` from now. Never throws: failures are the store's to log and to remember.
   */
  put(key: string, value: V, delayMs: number): void;
  /**
   * This instance's timer of window `key` ran out (or the dispatcher is flushing). True when this
   * instance owns the window and must send the value it put last; false when a later `put`
   * elsewhere owns it. The store forgets the window either way. Never rejects.
   */
  take(key: string): boolean | Promise<boolean>;
  /** Releases connections; called once by the dispatcher after its last flush. */
  close?(): Promise<void>;
}

/** What a store factory is given for one stage. */
export interface WindowStoreContext {
  stage: WindowStage;
  clock: DispatcherClock;
  logger: DispatcherLogger;
}

/** Creates the store of one stage (the dispatcher makes one per stage). */
export type WindowStoreFactory = <V>(context: WindowStoreContext) => WindowStore<V>;

/** Windows per process: every instance owns what it put in (spec 6.6 Persistence: in memory). */
export const memoryWindowStore: WindowStoreFactory = () => ({ put() {}, take: () => true });
