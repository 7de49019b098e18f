/**
 * Stage "retry" (spec 6.6): a failed attempt waits 1 s, then 2 s, before the next; after the last
 * the delivery is dropped. Deliveries waiting here are the ones a graceful stop loses (spec 6.6
 * Persistence), so the waits are kept where close() can end them.
 */
import type { AttemptOutcome } from "./deliver.js";
import type { Job } from "./job.js";
import { schedule } from "./schedule.js";
import type { DispatcherClock } from "./types.js";

export interface Retries {
  /** The wait before the next attempt of `job`, or undefined when it gets none (no retries, or the last one failed). */
  waitFor(job: Job): number | undefined;
  /** Holds `job` (its last attempt failed with `outcome`) for `ms`, then hands it to `again`. */
  hold(job: Job, outcome: AttemptOutcome, ms: number, again: (job: Job) => void): void;
  /** Deliveries waiting for their next attempt. */
  readonly size: number;
  /** Ends every wait; each job held is handed to `lost` with its last outcome. */
  stop(lost: (job: Job, last: AttemptOutcome) => void): void;
}

/**
 * @example
 * const retries = createRetries(clock, [1000, 2000]);
 * const ms = retries.waitFor(job);
 * if (ms !== undefined) retries.hold(job, outcome, ms, enqueue);
 */
export function createRetries(clock: DispatcherClock, delaysMs: readonly number[]): Retries {
  const waiting = new Map<unknown, Job>();
  return {
    waitFor: (job) => (job.retries ? delaysMs[(job.attempts ?? 1) - 1] : undefined),
    hold(job, outcome, ms, again) {
      const fire = () => {
        waiting.delete(handle);
        again(job);
      };
      // A caller awaiting deliverNow keeps the process alive through the wait; emitted ones do not.
      const handle = job.onDone ? clock.setTimeout(fire, ms) : schedule(clock, fire, ms);
      job.last = outcome;
      waiting.set(handle, job);
    },
    get size() {
      return waiting.size;
    },
    stop(lost) {
      for (const [handle, job] of waiting) {
        clock.clearTimeout(handle);
        lost(job, job.last!);
      }
      waiting.clear();
    },
  };
}
