/**
 * The webhook dispatcher: ONE pipeline of stages (DESIGN 2, spec 6.6, 6.7), whatever the window
 * store:
 *
 *   emit/record → coalesce window (content.updated per entry, 0.5 s) → match (match.ts) →
 *   debounce window (the webhook's debounce_ms) → queue (queue.ts) → deliver (deliver.ts, after
 *   reread-before-send.ts) → retry (retry.ts) → report (report.ts)
 *
 * Decisions:
 * - Windows are trailing at both stages: a window closes a fixed time after the LAST event put in
 *   it and sends only that event (spec 6.7.3). An update therefore goes out ~debounce_ms + 0.5 s
 *   after the last one, anything else exactly debounce_ms after the last one, or at once with
 *   debounce_ms 0 (spec 6.7.4).
 * - Where windows live is a WindowStore (types.ts): memory (default, per process), Redis
 *   (cluster-wide), or the SQL outbox (persistent: windows and deliveries are rows, events enter
 *   through `record` inside the write's transaction, and a crash loses nothing). The stages, the
 *   keys and the timing are the same for all three; test/webhooks/window-store-conformance.ts runs
 *   each store through the same cases.
 * - A debounce window holds the target, the event name and the event's data as JSON text, one
 *   string shared by every webhook's window of that event (a third of the object graph's size, and
 *   no reference into the caller's objects), parsed back when the window closes; never a signed
 *   body: the body is built and signed per attempt, so its timestamp is the send time (spec 6.1).
 * - Before each attempt the webhook is read again (reread-before-send.ts), so a deleted,
 *   deactivated or changed webhook is never served from what a window or a retry wait holds.
 * - close() in memory flushes windows, gives queued and in-flight deliveries the grace period, and
 *   drops retries in backoff as lost (spec 6.6 Persistence); with persistent windows, windows stay
 *   where they are and unfinished deliveries are given back to the store.
 */
import { randomUUID } from "node:crypto";
import { restampDeliveryBody, type ServiceEvent } from "../core/events.js";
import { errorText } from "./error-text.js";
import { eventCodec, isTarget, payloadOf, pendingCodec, unpack, type Pending } from "./pending.js";
import { flatCopy } from "./timed-windows.js";
import { createPinnedAgent } from "./pinned-agent.js";
import { DEFAULTS, resolveOptions } from "./options.js";
import { coalesceKey, debounceWindow, wantsEvent } from "./match.js";
import { createDeliveryQueue } from "./queue.js";
import type { Job } from "./job.js";
import type { DeliveryResult, Dispatcher, DispatcherOptions, StoredItem, StoredOutcome, WebhookTarget } from "./types.js";
import { memoryWindowStore } from "./memory-windows.js";

/**
 * Creates an in-memory dispatcher. Debouncing is trailing: a window closes a fixed time after the
 * last event put in it, and sends only that last event (spec 6.7.3).
 *
 * @example
 * const dispatcher = createDispatcher({ source: { targetsFor: (ws, event) => repo.activeWebhooks(ws, event) } });
 * dispatcher.emit({ workspaceId, event: "content.updated", data: { collection: "posts", entry } });
 * await dispatcher.close();
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const opts = resolveOptions(options);
  const { clock, logger, source } = opts;
  const agent = createPinnedAgent({
    allowPrivateTargets: opts.allowPrivateTargets,
    lookup: opts.lookup,
    ca: opts.ca,
    maxSockets: opts.maxPerHost,
  });
  const queue = createDeliveryQueue({
    agent,
    clock,
    logger,
    timeoutMs: opts.timeoutMs,
    retryDelaysMs: opts.retryDelaysMs,
    maxConcurrency: opts.maxConcurrency,
    maxPerHost: opts.maxPerHost,
    allowPrivateTargets: opts.allowPrivateTargets,
    current: source.current && ((workspaceId, webhookId) => source.current!(workspaceId, webhookId)),
    ...(opts.onAttempt && { onAttempt: opts.onAttempt }),
  });
  const windows = opts.windows === "memory" ? memoryWindowStore : opts.windows;
  // A store that keeps the queue too persists everything: events come through record(), the
  // memory bound does not apply, and deliveries go through the store before the queue.
  const deliveries = windows.deliveries;
  const persistent = deliveries !== undefined;
  // spec 6.7.1: content.updated is coalesced per entry BEFORE the webhooks are looked up. Every
  // webhook of the workspace sees the same update stream, so this equals coalescing per
  // (webhook, entry), with one window and one lookup per burst instead of one per webhook.
  const coalesce = windows<ServiceEvent>({
    stage: "coalesce",
    clock,
    logger,
    codec: eventCodec,
    onClose: async (event, closedAt) => {
      if (!(await fanOut(event, false, closedAt)) && persistent) throw new Error("webhook targets lookup failed; the event is matched again after its lease");
    },
  });
  // spec 6.7.2: the optional per-webhook window, after coalescing (so updated waits ~debounce_ms + 0.5 s).
  const debounce = windows<Pending>({ stage: "debounce", clock, logger, codec: pendingCodec, onClose: (pending) => sendPending(pending) });
  deliveries?.start((item) => sendStored(item));
  const lookups = new Set<Promise<boolean>>();
  let dropped = 0;
  let closing: Promise<void> | undefined;
  let lastCapLog = -Infinity;
  let capSuppressed = 0;

  const pending = () => coalesce.size + debounce.size + awaiting + queue.pending + (deliveries?.size ?? 0);
  const full = () => !persistent && pending() >= opts.maxPending;

  const dropFull = (what: Record<string, unknown>): void => {
    dropped++;
    // Under a flood, one line per second (with the count) instead of one per event.
    const now = clock.now();
    if (now - lastCapLog < 1000) return void capSuppressed++;
    logger.warn(`webhook delivery dropped: ${opts.maxPending} deliveries pending`, { ...what, droppedSinceLastLine: capSuppressed + 1 });
    lastCapLog = now;
    capSuppressed = 0;
  };

  // Stage "match". Events of one turn share one lookup per (workspace, event name): a burst of
  // writes costs one query instead of one per event, and holds an array slot per event instead of
  // a promise chain. Resolves true once every event went on to its windows or the queue, false
  // when the lookup (or a persisting store) failed; never rejects.
  const batches = new Map<string, { events: ServiceEvent[]; from: (number | undefined)[]; done: Promise<boolean> }>();
  let awaiting = 0;

  const fanOut = (event: ServiceEvent, immediate: boolean, from?: number): Promise<boolean> => {
    const batchKey = `${immediate ? 1 : 0}\0${event.workspaceId}\0${event.event}`;
    const open = batches.get(batchKey);
    awaiting++;
    if (open) {
      open.events.push(event);
      open.from.push(from);
      return open.done;
    }
    const events = [event];
    const froms = [from];
    const lookup: Promise<boolean> = Promise.resolve()
      .then(() => {
        // Events emitted from here on wait for a lookup of their own.
        batches.delete(batchKey);
        return source.targetsFor(event.workspaceId, event.event);
      })
      .then(
        async (targets) => {
          awaiting -= events.length; // they become windows/deliveries now: do not count them twice against the cap
          const onward: Promise<void>[] = [];
          for (let i = 0; i < events.length; i++) fanOutTo(targets, events[i]!, immediate, froms[i], onward);
          await Promise.all(onward);
          return true;
        },
        (err: unknown) => {
          awaiting -= events.length;
          if (!persistent) dropped += events.length;
          logger.error(persistent ? "webhook targets lookup failed" : "webhook targets lookup failed; event not delivered", {
            workspace: event.workspaceId,
            event: event.event,
            events: events.length,
            error: errorText(err),
          });
          return false;
        },
      )
      .catch((err: unknown) => {
        logger.error("webhook event not handed on; it is matched again after its lease", { workspace: event.workspaceId, event: event.event, error: errorText(err) });
        return false;
      })
      .finally(() => lookups.delete(lookup));
    batches.set(batchKey, { events, from: froms, done: lookup });
    lookups.add(lookup);
    return lookup;
  };

  const fanOutTo = (targets: readonly WebhookTarget[], event: ServiceEvent, immediate: boolean, from: number | undefined, onward: Promise<void>[]): void => {
    try {
      let json: string | undefined;
      const packed = () => (json ??= flatCopy(JSON.stringify(event.data)));
      let payload: Job["payload"] | undefined;
      const shared = () => (payload ??= payloadOf(event, json));
      for (const target of targets) {
        if (!wantsEvent(target, event)) continue;
        const next = route(target, event, immediate, from, packed, shared);
        if (next) onward.push(next);
      }
    } catch (err) {
      dropped++;
      logger.error("webhook event not delivered", { workspace: event.workspaceId, event: event.event, error: errorText(err) });
    }
  };

  /** Into the target's debounce window, or on to the queue. */
  const route = (
    target: WebhookTarget,
    event: ServiceEvent,
    immediate: boolean,
    from: number | undefined,
    packed: () => string,
    payload: () => Job["payload"],
  ): void | Promise<void> => {
    const window = immediate ? undefined : debounceWindow(target, event);
    if (!window) return persistent ? sendPending({ target, name: event.event, data: packed() }) : send(target, event, payload());
    if (!debounce.has(window.key) && full()) return dropFull({ webhook: target.id, event: event.event });
    // Counted from the event (or its coalescing window's close), not from when the match ran.
    return debounce.put(window.key, { target, name: event.event, data: packed() }, window.delayMs, from === undefined ? undefined : { from });
  };

  /** Stage "queue", in memory. */
  const send = (target: WebhookTarget, event: ServiceEvent, payload: Job["payload"]): void => {
    if (full()) return dropFull({ webhook: target.id, event: event.event });
    queue.push({ target, event, payload, retries: true, reread: true });
  };
  const sendPending = (pending: Pending): void | Promise<void> => {
    if (deliveries) return deliveries.add(pendingCodec.encode(pending));
    const event = unpack(pending);
    // A memory or Redis window holds the target read at match time (re-read before the attempt).
    if (isTarget(pending.target)) send(pending.target, event, payloadOf(event, pending.data));
  };

  /** Stage "queue" for a delivery the store keeps until it is finished. */
  const sendStored = async (item: StoredItem): Promise<StoredOutcome> => {
    if (closing) return "release";
    const event = JSON.parse(item.payload) as ServiceEvent;
    const target = await source.current!(item.workspaceId, item.webhookId!);
    if (!target || !wantsEvent(target, event)) {
      dropped++;
      logger.info("webhook delivery dropped: the webhook was deleted, deactivated or unsubscribed", { workspace: item.workspaceId, event: item.event });
      return "dropped";
    }
    const result = await new Promise<DeliveryResult>((resolve) =>
      queue.push({ target, event, payload: payloadOf(event), retries: true, reread: true, onDone: resolve }),
    );
    if (!result.ok && closing) return "release";
    return result.ok ? "done" : "dropped";
  };

  const flush = async (): Promise<void> => {
    if (deliveries) return deliveries.poll();
    for (const event of await coalesce.drain()) void fanOut(event, true);
    const sendAll = (list: Pending[]) => {
      for (const pending of list) void sendPending(pending);
    };
    sendAll(await debounce.drain());
    // Lookups already under way may still open windows: wait for them, then send those too.
    await Promise.all([...lookups]);
    sendAll(await debounce.drain());
  };

  const shutdown = async (graceMs: number): Promise<void> => {
    queue.stopRetries();
    // Persisting windows stay in the store (drain stops taking new ones); memory ones are sent now.
    if (persistent) await Promise.all([coalesce.drain(), debounce.drain()]);
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
    await coalesce.drain();
    await debounce.drain();
    await Promise.all([coalesce.close(), debounce.close()]).catch((err: unknown) =>
      logger.warn("webhook window store did not close cleanly", { error: errorText(err) }),
    );
    agent.destroy();
  };

  return {
    emit(event) {
      // Persisting windows: the write recorded its events in its own transaction (record).
      if (persistent) return;
      try {
        if (closing) {
          dropped++;
          logger.warn("webhook event dropped: dispatcher closed", { workspace: event.workspaceId, event: event.event });
          return;
        }
        const key = coalesceKey(event);
        if (key !== undefined) {
          if (!coalesce.has(key) && full()) return dropFull({ event: event.event });
          return void coalesce.put(key, event, opts.coalesceMs);
        }
        if (full()) return dropFull({ event: event.event });
        void fanOut(event, false);
      } catch (err) {
        // Called after commit: a bad event must never break the write that emitted it.
        dropped++;
        logger.error("webhook event rejected", { error: errorText(err) });
      }
    },
    ...(persistent && {
      async record(tx, events) {
        const now = clock.now();
        for (const event of events) {
          // An event outside content.updated is a window of its own that closes at once: matched by the next poll.
          const key = coalesceKey(event);
          await coalesce.put(key ?? `event:${randomUUID()}`, event, key === undefined ? 0 : opts.coalesceMs, { tx, from: now });
        }
      },
    }),
    deliverNow(target, event, deliverOptions) {
      if (closing) {
        return Promise.resolve<DeliveryResult>({ ok: false, status: null, error: "dispatcher closed", attempts: 0, durationMs: 0, signature: "" });
      }
      return new Promise((resolve) =>
        queue.push({ target, event, payload: payloadOf(event), retries: deliverOptions?.retries ?? false, reread: deliverOptions?.reread, onDone: resolve }),
      );
    },
    // A redelivery is an owner's explicit resend of a logged body: it goes through the in-memory
    // queue (with retries) in every mode, so persisting windows do not recover it after a crash.
    redeliver(target, delivery) {
      const deliveryId = `msg_${randomUUID()}`;
      if (closing) {
        dropped++;
        logger.warn("webhook redelivery dropped: dispatcher closed", { webhook: target.id, event: delivery.event });
        return { deliveryId, done: Promise.resolve<DeliveryResult>({ ok: false, status: null, error: "dispatcher closed", attempts: 0, durationMs: 0, signature: "" }) };
      }
      const done = new Promise<DeliveryResult>((resolve) =>
        queue.push({
          target,
          event: { workspaceId: target.workspaceId, event: delivery.event },
          payload: (_target, timestamp) => Buffer.from(restampDeliveryBody(delivery.format, delivery.body, timestamp), "utf8"),
          retries: true,
          redelivery: true,
          deliveryId,
          onDone: resolve,
        }),
      );
      return { deliveryId, done };
    },
    flush,
    close(closeOptions) {
      closing ??= shutdown(closeOptions?.graceMs ?? DEFAULTS.graceMs);
      return closing;
    },
    stats() {
      return {
        pending: pending(),
        inFlight: queue.inFlight,
        delivered: queue.counts.delivered,
        failed: queue.counts.failed,
        dropped: dropped + queue.counts.dropped,
      };
    },
  };
}
