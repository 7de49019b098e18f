/**
 * A background timer on the dispatcher's clock: windows and retry waits must never keep a process
 * alive on their own.
 */
import type { DispatcherClock } from "./types.js";

/**
 * `clock.setTimeout`, unref'd when the handle supports it (Node timers do).
 *
 * @example
 * const handle = schedule(clock, () => sendWindow(), 500);
 */
export function schedule(clock: DispatcherClock, fn: () => void, ms: number): unknown {
  const handle = clock.setTimeout(fn, Math.max(0, ms));
  (handle as { unref?: () => void } | null)?.unref?.();
  return handle;
}
