/**
 * The webhook dispatcher (DESIGN 2): match -> coalesce/debounce -> queue -> deliver -> retry ->
 * drop+log, and a graceful flush on close (spec 6.6, 6.7).
 *
 * Decisions:
 * - Debouncing is trailing at both stages: a window closes a fixed time after the LAST event put in
 *   it and sends only that event (spec 6.7.3). Stage 1 coalesces content.updated per entry for
 *   `coalesceMs`; stage 2 is the webhook's debounce_ms, keyed (webhook, event, entry) or (webhook,
 *   event). An update therefore goes out ~debounce_ms + 0.5 s after the last one, anything else
 *   exactly debounce_ms after the last one, or at once with debounce_ms 0 (spec 6.7.4).
 * - A debounce window holds the target, the event name and the event's data as JSON text, one
 *   string shared by every webhook's window of that event (a third of the object graph's size, and
 *   no reference into the caller's objects), parsed back when the window closes; never a signed
 *   body: the body is built and signed per attempt, so its timestamp is the send time (spec 6.1).
 * - In memory only (spec 6.6 Persistence). close() flushes windows, gives queued and in-flight
 *   deliveries the grace period, and drops retries in backoff as lost.
 * - The target a window or a retry wait holds is what was read when the event happened; before each
 *   attempt the webhook is read again (`source.current`, current.ts), so a deleted, deactivated or
 *   changed webhook is never served from that copy.
 * - Windows are per process unless `windows` is a shared store (redis-windows.ts in the service):
 *   then a window is cluster-wide and only the instance that put its last value in it sends it.
 */
import { randomUUID } from "node:crypto";
import { eventSubjectId, restampDeliveryBody, type ServiceEvent } from "../core/events.js";
import { toDeliveryBody } from "./sign.js";
import { createDebounceWindows, flatCopy } from "./debounce.js";
import { createPinnedAgent } from "./pinned-agent.js";
import { DEFAULTS, resolveOptions } from "./options.js";
import { coalesceKey, debounceWindow, wantsEvent } from "./matching.js";
import { createDeliveryQueue } from "./queue.js";
import type { Job } from "./job.js";
import type { DeliveryResult, Dispatcher, DispatcherOptions, WebhookTarget } from "./types.js";
import { memoryWindowStore } from "./window-store.js";

/**
 * A debounced delivery: the event's `data` as JSON text (delivery bodies are JSON of the event, so
 * the round trip is exact); its workspace is the target's (wantsEvent) and its name a shared string.
 */
interface Pending {
  target: WebhookTarget;
  name: ServiceEvent["event"];
  data: string;
}

const unpack = ({ target, name, data }: Pending) => ({ workspaceId: target.workspaceId, event: name, data: JSON.parse(data) }) as ServiceEvent;

/**
 * The body builder of one event, shared by every webhook it goes to: the event's data is
 * serialized once (or not at all when the JSON is at hand, as a debounce window holds it) and each
 * attempt splices its own send time around it (deliveryBodyText).
 */
function payloadOf(event: ServiceEvent, dataJson?: string): Job["payload"] {
  let data = dataJson;
  return (target, timestamp) => toDeliveryBody(target.format, event, timestamp, target.format === "service" ? (data ??= JSON.stringify(event.data)) : undefined);
}

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
  // spec 6.7.1: content.updated is coalesced per entry BEFORE the webhooks are looked up. Every
  // webhook of the workspace sees the same update stream, so this equals coalescing per
  // (webhook, entry), with one window and one lookup per burst instead of one per webhook.
  const store = opts.windows === "memory" ? memoryWindowStore : opts.windows;
  const coalesce = createDebounceWindows(store<ServiceEvent>({ stage: "coalesce", clock, logger }), clock, (event) => fanOut(event, false), logger);
  // spec 6.7.2: the optional per-webhook window, after coalescing (so updated waits ~debounce_ms + 0.5 s).
  const debounce = createDebounceWindows(store<Pending>({ stage: "debounce", clock, logger }), clock, (pending) => sendPending(pending), logger);
  const lookups = new Set<Promise<void>>();
  let dropped = 0;
  let closing: Promise<void> | undefined;
  let lastCapLog = -Infinity;
  let capSuppressed = 0;

  const pending = () => coalesce.size + debounce.size + awaiting + queue.pending;

  const dropFull = (what: Record<string, unknown>): void => {
    dropped++;
    // Under a flood, one line per second (with the count) instead of one per event.
    const now = clock.now();
    if (now - lastCapLog < 1000) return void capSuppressed++;
    logger.warn(`webhook delivery dropped: ${opts.maxPending} deliveries pending`, { ...what, droppedSinceLastLine: capSuppressed + 1 });
    lastCapLog = now;
    capSuppressed = 0;
  };

  // Events of one turn share one lookup per (workspace, event name): a burst of writes costs one
  // query instead of one per event, and holds an array slot per event instead of a promise chain.
  const batches = new Map<string, ServiceEvent[]>();
  let awaiting = 0;

  const fanOut = (event: ServiceEvent, immediate: boolean): void => {
    const batchKey = `${immediate ? 1 : 0}\0${event.workspaceId}\0${event.event}`;
    const open = batches.get(batchKey);
    awaiting++;
    if (open) return void open.push(event);
    const events = [event];
    batches.set(batchKey, events);
    const lookup: Promise<void> = Promise.resolve()
      .then(() => {
        // Events emitted from here on wait for a lookup of their own.
        batches.delete(batchKey);
        return source.targetsFor(event.workspaceId, event.event);
      })
      .then(
        (targets) => {
          awaiting -= events.length; // they become windows/deliveries now: do not count them twice against the cap
          for (const one of events) fanOutTo(targets, one, immediate);
        },
        (err: unknown) => {
          awaiting -= events.length;
          dropped += events.length;
          logger.error("webhook targets lookup failed; event not delivered", {
            workspace: event.workspaceId,
            event: event.event,
            events: events.length,
            error: err instanceof Error ? err.message : String(err),
          });
        },
      )
      .finally(() => lookups.delete(lookup));
    lookups.add(lookup);
  };

  const fanOutTo = (targets: readonly WebhookTarget[], event: ServiceEvent, immediate: boolean): void => {
    try {
      let json: string | undefined;
      const packed = () => (json ??= flatCopy(JSON.stringify(event.data)));
      let payload: Job["payload"] | undefined;
      const shared = () => (payload ??= payloadOf(event, json));
      for (const target of targets) if (wantsEvent(target, event)) route(target, event, immediate, packed, shared);
    } catch (err) {
      dropped++;
      logger.error("webhook event not delivered", { workspace: event.workspaceId, event: event.event, error: err instanceof Error ? err.message : String(err) });
    }
  };

  const route = (target: WebhookTarget, event: ServiceEvent, immediate: boolean, packed: () => string, payload: () => Job["payload"]): void => {
    const window = immediate ? undefined : debounceWindow(target, event);
    if (!window) return send(target, event, payload());
    if (!debounce.has(window.key) && pending() >= opts.maxPending) return dropFull({ webhook: target.id, event: event.event });
    debounce.touch(window.key, { target, name: event.event, data: packed() }, window.delayMs);
  };

  const send = (target: WebhookTarget, event: ServiceEvent, payload: Job["payload"]): void => {
    if (pending() >= opts.maxPending) return dropFull({ webhook: target.id, event: event.event });
    queue.push({ target, event, payload, retries: true, reread: true });
  };
  const sendPending = (pending: Pending): void => {
    const event = unpack(pending);
    send(pending.target, event, payloadOf(event, pending.data));
  };

  const flush = async (): Promise<void> => {
    for (const event of await coalesce.drain()) fanOut(event, true);
    const sendAll = (list: Pending[]) => {
      for (const pending of list) sendPending(pending);
    };
    sendAll(await debounce.drain());
    // Lookups already under way may still open windows: wait for them, then send those too.
    await Promise.all([...lookups]);
    sendAll(await debounce.drain());
  };

  const shutdown = async (graceMs: number): Promise<void> => {
    queue.stopRetries();
    await flush();
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
      logger.warn("webhook window store did not close cleanly", { error: err instanceof Error ? err.message : String(err) }),
    );
    agent.destroy();
  };

  return {
    emit(event) {
      try {
        if (closing) {
          dropped++;
          logger.warn("webhook event dropped: dispatcher closed", { workspace: event.workspaceId, event: event.event });
          return;
        }
        const key = coalesceKey(event);
        if (key !== undefined) {
          if (!coalesce.has(key) && pending() >= opts.maxPending) return dropFull({ event: event.event });
          return coalesce.touch(key, event, opts.coalesceMs);
        }
        if (pending() >= opts.maxPending) return dropFull({ event: event.event });
        fanOut(event, false);
      } catch (err) {
        // Called after commit: a bad event must never break the write that emitted it.
        dropped++;
        logger.error("webhook event rejected", { error: err instanceof Error ? err.message : String(err) });
      }
    },
    deliverNow(target, event, deliverOptions) {
      if (closing) {
        return Promise.resolve<DeliveryResult>({ ok: false, status: null, error: "dispatcher closed", attempts: 0, durationMs: 0, signature: "" });
      }
      return new Promise((resolve) =>
        queue.push({ target, event, payload: payloadOf(event), retries: deliverOptions?.retries ?? false, reread: deliverOptions?.reread, onDone: resolve }),
      );
    },
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
