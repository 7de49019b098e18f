/**
 * The webhook dispatcher: ONE pipeline of stages (DESIGN 2, spec 6.6, 6.7), whatever the window
 * store:
 *
 *   emit/record → coalesce window (content.updated per entry, 0.5 s) → match (intake.ts, match.ts)
 *   → debounce window (the webhook's debounce_ms) → queue (queue.ts) → deliver (deliver.ts, after
 *   reread-before-send.ts) → retry (retry.ts) → report (report.ts)
 *
 * Decisions:
 * - Windows are trailing at both stages: a window closes a fixed time after the LAST event put in
 *   it and sends only that event (spec 6.7.3). An update therefore goes out ~debounce_ms + 0.5 s
 *   after the last one, anything else exactly debounce_ms after the last one, or at once with
 *   debounce_ms 0 (spec 6.7.4).
 * - Where windows live is a WindowStore (window-store.ts): memory (default, per process), Redis
 *   (cluster-wide), or the SQL outbox (persistent: windows and deliveries are rows, events enter
 *   through `record` inside the write's transaction, and a crash loses nothing). The stages, the
 *   keys and the timing are the same for all three; test/webhooks/window-store-conformance.test.ts
 *   runs each store through the same cases.
 * - A debounce window holds the event's data as JSON text, never a signed body (pending.ts).
 * - Before each attempt the webhook is read again (reread-before-send.ts), so a deleted,
 *   deactivated or changed webhook is never served from what a window or a retry wait holds.
 * - close() is the graceful stop of spec 6.6 Persistence (shutdown.ts).
 */
import { randomUUID } from "node:crypto";
import { restampDeliveryBody, type ServiceEvent } from "../core/events.js";
import { errorText } from "./error-text.js";
import { createIntake, type Route } from "./intake.js";
import type { Job } from "./job.js";
import { debounceWindow, wantsEvent } from "./match.js";
import { memoryWindowStore } from "./memory-windows.js";
import { DEFAULTS, resolveOptions, type DispatcherOptions } from "./options.js";
import { createPendingCap } from "./pending-cap.js";
import { isTarget, payloadOf, pendingCodec, unpack, type Pending } from "./pending.js";
import { createPinnedAgent } from "./pinned-agent.js";
import { createDeliveryQueue } from "./queue.js";
import { shutdownPipeline } from "./shutdown.js";
import type { DeliveryResult, Dispatcher, WebhookTarget } from "./types.js";
import type { StoredItem, StoredOutcome } from "./window-store.js";

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
  let dropped = 0;
  let closing: Promise<void> | undefined;
  const pending = () => intake.size + debounce.size + queue.pending + (deliveries?.size ?? 0);
  const cap = createPendingCap({ maxPending: opts.maxPending, enabled: !persistent, clock, logger, pending, onDropped: () => void dropped++ });

  /** Into the target's debounce window, or on to the queue. */
  const route: Route = (target, event, immediate, from, packed, payload) => {
    const window = immediate ? undefined : debounceWindow(target, event);
    if (!window) return persistent ? sendPending({ target, name: event.event, data: packed() }) : send(target, event, payload());
    if (!debounce.has(window.key) && cap.full()) return cap.drop({ webhook: target.id, event: event.event });
    // Counted from the event (or its coalescing window's close), not from when the match ran.
    return debounce.put(window.key, { target, name: event.event, data: packed() }, window.delayMs, from === undefined ? undefined : { from });
  };

  /** Stage "queue", in memory. */
  const send = (target: WebhookTarget, event: ServiceEvent, payload: Job["payload"]): void => {
    if (cap.full()) return cap.drop({ webhook: target.id, event: event.event });
    queue.push({ target, event, payload, retries: true, reread: true });
  };
  const sendPending = (pending: Pending): void | Promise<void> => {
    if (deliveries) return deliveries.add(pendingCodec.encode(pending));
    const event = unpack(pending);
    // A memory or Redis window holds the target read at match time (re-read before the attempt).
    if (isTarget(pending.target)) send(pending.target, event, payloadOf(event, pending.data));
  };

  // Stages "coalesce" and "match": where events enter (intake.ts), handed on to route below.
  const intake = createIntake({ source, windows, clock, logger, coalesceMs: opts.coalesceMs, persistent, cap, route, onDropped: (n) => void (dropped += n) });
  // spec 6.7.2: the optional per-webhook window, after coalescing (so updated waits ~debounce_ms + 0.5 s).
  const debounce = windows<Pending>({ stage: "debounce", clock, logger, codec: pendingCodec, onClose: (pending) => sendPending(pending) });
  deliveries?.start((item) => sendStored(item));

  /** Stage "queue" for a delivery the store keeps until it is finished. */
  const sendStored = async (item: StoredItem): Promise<StoredOutcome> => {
    if (closing) return "release";
    const event = JSON.parse(item.payload) as ServiceEvent;
    const target = await source.current!(item.workspaceId, item.webhookId!);
    // close() may have begun during the read: no attempt starts after it, the row is given back.
    if (closing) return "release";
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
    await intake.flush();
    const sendAll = (list: Pending[]) => {
      for (const pending of list) void sendPending(pending);
    };
    sendAll(await debounce.drain());
    // Lookups already under way may still open windows: wait for them, then send those too.
    await intake.settled();
    sendAll(await debounce.drain());
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
        intake.take(event);
      } catch (err) {
        // Called after commit: a bad event must never break the write that emitted it.
        dropped++;
        logger.error("webhook event rejected", { error: errorText(err) });
      }
    },
    ...(persistent && { record: (tx, events) => intake.record(tx, events) }),
    deliverNow(target, event, deliverOptions) {
      if (closing) return closedResult();
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
        return { deliveryId, done: closedResult() };
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
      const parts = { queue, windows: [intake.windows, debounce], persistent, flush, agent, logger };
      closing ??= shutdownPipeline(parts, closeOptions?.graceMs ?? DEFAULTS.graceMs);
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

/** The outcome of a delivery asked for after close(): never attempted. */
const closedResult = (): Promise<DeliveryResult> =>
  Promise.resolve({ ok: false, status: null, error: "dispatcher closed", attempts: 0, durationMs: 0, signature: "" });
