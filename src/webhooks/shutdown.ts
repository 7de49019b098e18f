/**
 * Graceful stop of the pipeline (spec 6.6 Persistence): in memory, windows are flushed, queued and
 * in-flight deliveries get the grace period and retries in backoff are dropped as lost; with
 * persistent windows, windows stay where they are and unfinished deliveries are given back to the
 * store (the dispatcher answers "release" for them once closing).
 */
import type { Agent } from "node:https";
import { errorText } from "./error-text.js";
import type { DeliveryQueue } from "./queue.js";
import type { DispatcherLogger } from "./types.js";
import type { WindowStore } from "./window-store.js";

export interface PipelineParts {
  queue: DeliveryQueue;
  /** The window stores, in pipeline order (coalesce, debounce). */
  windows: readonly WindowStore<unknown>[];
  /** The store persists windows and deliveries. */
  persistent: boolean;
  /** Sends every window of this instance now (memory and Redis). */
  flush: () => Promise<void>;
  agent: Agent;
  logger: DispatcherLogger;
}

/**
 * Resolves once nothing of the pipeline runs any more: no timer, no socket, no window held.
 *
 * @example
 * closing ??= shutdownPipeline({ queue, windows: [coalesce, debounce], persistent, flush, agent, logger }, 5000);
 */
export async function shutdownPipeline(parts: PipelineParts, graceMs: number): Promise<void> {
  const { queue, windows, persistent, flush, agent, logger } = parts;
  queue.stopRetries();
  // Persisting windows stay in the store (drain stops taking new ones); memory ones are sent now.
  if (persistent) await Promise.all(windows.map((w) => w.drain()));
  else await flush();
  if (queue.inFlight + queue.pending > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
    const late = await Promise.race([queue.idle().then(() => false), expired]);
    clearTimeout(timer);
    if (late) queue.abortAll(`dispatcher closed before the delivery finished (grace ${graceMs} ms)`);
    await queue.idle();
  }
  await queue.recorded();
  for (const w of windows) await w.drain();
  await Promise.all(windows.map((w) => w.close())).catch((err: unknown) =>
    logger.warn("webhook window store did not close cleanly", { error: errorText(err) }),
  );
  agent.destroy();
}
