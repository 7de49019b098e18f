/**
 * The memory bound of emitted events (DispatcherOptions.maxPending): over it a new window or
 * delivery is dropped and logged. A store that persists keeps everything outside the process, so
 * the bound does not apply to it.
 */
import type { DispatcherClock, DispatcherLogger } from "./types.js";

export interface PendingCapOptions {
  maxPending: number;
  /** False when the store persists (the bound never applies). */
  enabled: boolean;
  clock: DispatcherClock;
  logger: DispatcherLogger;
  /** What counts against the bound now (the dispatcher's `stats().pending`). */
  pending: () => number;
  /** Counts one dropped delivery (`stats().dropped`). */
  onDropped: () => void;
}

export interface PendingCap {
  /** True when one more window or delivery would go over the bound. */
  full(): boolean;
  /** Drops one window or delivery for the bound and logs it (`what`: its webhook and event). */
  drop(what: Record<string, unknown>): void;
}

/**
 * @example
 * const cap = createPendingCap({ maxPending: 100_000, enabled: true, clock, logger, pending, onDropped: () => dropped++ });
 * if (cap.full()) return cap.drop({ webhook: target.id, event: event.event });
 */
export function createPendingCap(options: PendingCapOptions): PendingCap {
  const { maxPending, enabled, clock, logger, pending, onDropped } = options;
  let lastLine = -Infinity;
  let suppressed = 0;
  return {
    full: () => enabled && pending() >= maxPending,
    drop(what) {
      onDropped();
      // Under a flood, one line per second (with the count) instead of one per event.
      const now = clock.now();
      if (now - lastLine < 1000) return void suppressed++;
      logger.warn(`webhook delivery dropped: ${maxPending} deliveries pending`, { ...what, droppedSinceLastLine: suppressed + 1 });
      lastLine = now;
      suppressed = 0;
    },
  };
}
