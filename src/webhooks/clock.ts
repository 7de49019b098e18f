/**
 * The one default clock of the dispatcher: `Date.now` and the global timers. Tests inject their own
 * (`DispatcherOptions.clock`).
 */
import type { DispatcherClock } from "./types.js";

/** Wall-clock time and Node's timers. */
export const systemClock: DispatcherClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
