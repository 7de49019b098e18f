/**
 * Stage "queue" (spec 6.6): bounded concurrency overall and per host, hosts served round-robin so
 * a slow receiver cannot starve the others, up to N attempts with waits between them, then drop
 * and log. Deliveries are independent: no ordering between them is kept.
 */
import { randomUUID } from "node:crypto";
import type { Agent } from "node:https";
import { performance } from "node:perf_hooks";
import { isSkipped, startRereadAttempt } from "./reread-before-send.js";
import { createDestinations, startAttempt, type Attempt, type AttemptOutcome } from "./deliver.js";
import { errorText } from "./error-text.js";
import { createRetries } from "./retry.js";
import { finish, logFields, toAttemptRecord } from "./report.js";
import type { Job } from "./job.js";
import type { AttemptRecord, DispatcherClock, DispatcherLogger, WebhookSource, WebhookTarget } from "./types.js";

export interface DeliveryQueueOptions {
  agent: Agent;
  clock: DispatcherClock;
  logger: DispatcherLogger;
  timeoutMs: number;
  retryDelaysMs: number[];
  maxConcurrency: number;
  maxPerHost: number;
  allowPrivateTargets: boolean;
  /** Reads a webhook as it is now; without it every attempt uses the target it was queued with. */
  current?: WebhookSource["current"];
  /** Receives every attempt to a target with `logDeliveries`. */
  onAttempt?: (record: AttemptRecord) => void | Promise<void>;
}

interface HostLane {
  jobs: Job[];
  head: number;
  active: number;
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;

/**
 * @example
 * const queue = createDeliveryQueue({ agent, clock, logger, timeoutMs: 10_000, retryDelaysMs: [1000, 2000], maxConcurrency: 64, maxPerHost: 8, allowPrivateTargets: false });
 * queue.push({ target, event, payload: (t, ts) => toDeliveryBody(t.format, event, ts), retries: true });
 */
export function createDeliveryQueue(options: DeliveryQueueOptions) {
  const { clock, logger } = options;
  const lanes = new Map<string, HostLane>();
  // Hosts with queued jobs and a free slot, in service order (Set keeps insertion order).
  const runnable = new Set<string>();
  // Hosts with all their connections in use and queued jobs: their next attempts wait in the pool.
  const topUp = new Set<string>();
  const running = new Set<Attempt>();
  const retries = createRetries(clock, options.retryDelaysMs);
  const idleWaiters: (() => void)[] = [];
  const counts = { queued: 0, delivered: 0, failed: 0, dropped: 0 };
  let retrying = true;
  // Log writes under way: close() waits for them, so the store is not closed under them.
  const recording = new Set<Promise<void>>();
  const destinations = createDestinations(options.allowPrivateTargets);
  // Attempts handed to the connection pool per host: its `maxPerHost` connections, and as many
  // waiting for one. Without the waiting ones, each freed connection idles until the next attempt is
  // built (it goes back to the pool and out again), which costs the sender a third more CPU per
  // delivery. Only the first `maxPerHost` of a host count against `maxConcurrency` (`wire`), so the
  // waiting ones never take a slot from another host.
  const perHost = options.maxPerHost * 2;
  let wire = 0;

  const laneFor = (host: string): HostLane => {
    let lane = lanes.get(host);
    if (!lane) lanes.set(host, (lane = { jobs: [], head: 0, active: 0 }));
    return lane;
  };

  const enqueue = (job: Job): void => {
    // Again on every retry: the webhook's URL may have changed since the last attempt.
    job.host = destinations(job.target.url).host;
    const lane = laneFor(job.host!);
    lane.jobs.push(job);
    counts.queued++;
    if (!runnable.has(job.host!) && !topUp.has(job.host!)) place(job.host!, lane);
    pump();
  };

  /** Puts a host with queued jobs where it is served next: needing a slot, topping up, or neither (full). */
  const place = (host: string, lane: HostLane): void => {
    runnable.delete(host);
    topUp.delete(host);
    if (lane.head >= lane.jobs.length) return;
    if (lane.active < options.maxPerHost) runnable.add(host);
    else if (lane.active < perHost) topUp.add(host);
  };

  const take = (host: string): void => {
    const lane = lanes.get(host)!;
    const job = lane.jobs[lane.head];
    lane.jobs[lane.head++] = undefined as never;
    if (lane.head > 1024 && lane.head * 2 > lane.jobs.length) {
      lane.jobs = lane.jobs.slice(lane.head);
      lane.head = 0;
    }
    counts.queued--;
    if (lane.active < options.maxPerHost) wire++;
    lane.active++;
    // Re-added at the end: round-robin across hosts.
    place(host, lane);
    run(job, lane);
  };

  const pump = (): void => {
    while (wire < options.maxConcurrency && runnable.size > 0) take(runnable.values().next().value!);
    // A Set visits what is added while it is iterated: a host topped up comes round again until
    // its lane is full or empty.
    for (const host of topUp) take(host);
    if (running.size === 0 && counts.queued === 0) for (const wake of idleWaiters.splice(0)) wake();
  };

  const run = (job: Job, lane: HostLane): void => {
    const host = job.host!;
    job.attempts = (job.attempts ?? 0) + 1;
    job.startedAt ??= performance.now();
    job.deliveryId ??= `msg_${randomUUID()}`;
    job.body = undefined; // set again once this attempt builds its body
    const start = (target: WebhookTarget): Attempt => {
      job.target = target;
      const timestamp = new Date(clock.now()).toISOString();
      job.body = job.payload(target, timestamp);
      job.sentAt = timestamp;
      return startAttempt(target, job.body, {
        agent: options.agent,
        timeoutMs: options.timeoutMs,
        allowPrivateTargets: options.allowPrivateTargets,
        timestamp,
        deliveryId: job.deliveryId!,
        destination: destinations(target.url),
      });
    };
    const current = options.current;
    const attempt = job.reread && current ? startRereadAttempt({ current }, job.target, job.event.event, start) : start(job.target);
    running.add(attempt);
    void attempt.done.then((outcome) => {
      running.delete(attempt);
      lane.active--;
      if (lane.active < options.maxPerHost) wire--;
      if (lane.head < lane.jobs.length) place(host, lane);
      else if (lane.active === 0) lanes.delete(host);
      settle(job, outcome);
      pump();
    });
  };

  const settle = (job: Job, outcome: AttemptOutcome): void => {
    const attempts = job.attempts!;
    if (isSkipped(outcome)) {
      job.attempts = attempts - 1; // nothing was sent
      counts.dropped++;
      logger.info(`webhook delivery dropped: ${outcome.error}`, logFields(job, outcome));
      return finish(job, outcome);
    }
    record(job, outcome);
    const line = logFields(job, outcome);
    if (outcome.ok) {
      counts.delivered++;
      logger.debug?.("webhook delivered", line);
      return finish(job, outcome);
    }
    const wait = retries.waitFor(job);
    if (wait === undefined) {
      counts.failed++;
      logger.warn(`webhook delivery dropped after ${attempts} attempt${attempts === 1 ? "" : "s"}`, line);
      return finish(job, outcome);
    }
    if (!retrying) {
      counts.dropped++;
      logger.warn("webhook delivery lost: dispatcher closing, no retry", line);
      return finish(job, outcome);
    }
    logger.info(`webhook attempt failed, retrying in ${wait} ms`, line);
    retries.hold(job, outcome, wait, enqueue);
  };

  /** Hands a sent attempt to `onAttempt` when its webhook logs deliveries; a failing recorder never affects delivery. */
  const record = (job: Job, outcome: AttemptOutcome): void => {
    if (!options.onAttempt || !job.target.logDeliveries || job.body === undefined) return;
    const fail = (err: unknown) => logger.warn("webhook delivery not recorded", { webhook: job.target.id, error: errorText(err) });
    try {
      const write: Promise<void> = Promise.resolve(options.onAttempt(toAttemptRecord(job, outcome)))
        .catch(fail)
        .finally(() => recording.delete(write));
      recording.add(write);
    } catch (err) {
      fail(err);
    }
  };

  return {
    /** Queues a delivery now (no debouncing). */
    push(job: Job): void {
      enqueue(job);
    },
    /** Queued + waiting to retry. */
    get pending(): number {
      return counts.queued + retries.size;
    },
    get inFlight(): number {
      return running.size;
    },
    counts: counts as Readonly<typeof counts>,
    /** Resolves when nothing is queued or in flight (retry waits do not count). */
    idle(): Promise<void> {
      if (running.size === 0 && counts.queued === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Resolves when every attempt record handed to `onAttempt` so far is written (or failed). */
    async recorded(): Promise<void> {
      while (recording.size > 0) await Promise.all([...recording]);
    },
    /** Spec 6.6 Persistence: deliveries in retry backoff are lost on shutdown; no new retries. */
    stopRetries(): void {
      retrying = false;
      retries.stop((job, last) => {
        counts.dropped++;
        logger.warn("webhook delivery lost: dispatcher closed during retry wait", logFields(job, last));
        finish(job, { ...last, error: `dispatcher closed during retry wait; last error: ${last.error}` });
      });
    },
    /** Ends everything still queued or in flight as lost. */
    abortAll(reason: string): void {
      for (const lane of lanes.values()) {
        for (let i = lane.head; i < lane.jobs.length; i++) {
          const job = lane.jobs[i];
          counts.dropped++;
          logger.warn(`webhook delivery lost: ${reason}`, logFields(job, undefined));
          finish(job, { ok: false, status: null, error: reason, signature: "", durationMs: 0 });
        }
        lane.jobs = [];
        lane.head = 0;
      }
      counts.queued = 0;
      runnable.clear();
      topUp.clear();
      for (const [host, lane] of lanes) if (lane.active === 0) lanes.delete(host);
      for (const attempt of running) attempt.abort(reason);
      pump();
    },
  };
}
