/**
 * Stages "coalesce" and "match": where an event enters the pipeline. A content.updated waits in its
 * entry's coalescing window (spec 6.7.1); when the window closes, or at once for any other event,
 * the workspace's webhooks are looked up and every one that wants the event is handed to `route`
 * (its debounce window or the queue, dispatcher.ts).
 *
 * spec 6.7.1 coalesces content.updated per entry BEFORE the webhooks are looked up: every webhook
 * of the workspace sees the same update stream, so this equals coalescing per (webhook, entry),
 * with one window and one lookup per burst instead of one per webhook.
 */
import { randomUUID } from "node:crypto";
import type { ServiceEvent } from "../core/events.js";
import type { Sql } from "../storage/sql.js";
import { errorText } from "./error-text.js";
import type { Job } from "./job.js";
import { coalesceKey, wantsEvent } from "./match.js";
import type { PendingCap } from "./pending-cap.js";
import { eventCodec, payloadOf } from "./pending.js";
import { flatCopy } from "./timed-windows.js";
import type { DispatcherClock, DispatcherLogger, WebhookSource, WebhookTarget } from "./types.js";
import type { WindowStore, WindowStoreFactory } from "./window-store.js";

/**
 * Hands one (webhook, event) on. `immediate` skips the debounce window (flush, close); `from` is
 * when the event's coalescing window closed; `packed` (the event's data as JSON text) and
 * `payload` (its body builder) are made once per event, shared by all its webhooks.
 */
export type Route = (
  target: WebhookTarget,
  event: ServiceEvent,
  immediate: boolean,
  from: number | undefined,
  packed: () => string,
  payload: () => Job["payload"],
) => void | Promise<void>;

export interface IntakeOptions {
  source: WebhookSource;
  windows: WindowStoreFactory;
  clock: DispatcherClock;
  logger: DispatcherLogger;
  coalesceMs: number;
  /** The store persists: events come through `record`, and a failed lookup is matched again a few seconds later (the store retries the window). */
  persistent: boolean;
  cap: PendingCap;
  route: Route;
  /** Counts deliveries lost to a failed lookup or a bad event (`stats().dropped`). */
  onDropped: (count: number) => void;
}

export interface Intake {
  /** An emitted event (windows in memory or Redis): into its coalescing window, or on to match. */
  take(event: ServiceEvent): void;
  /** A store that persists: records the events of a write inside its transaction. */
  record(tx: Sql, events: ServiceEvent[]): Promise<void>;
  /** Closes this instance's coalescing windows now and matches their events, skipping debounce windows. */
  flush(): Promise<void>;
  /** Resolves once every lookup under way has handed its events on. */
  settled(): Promise<void>;
  /** Coalescing windows held and events waiting for their lookup (both count against maxPending). */
  readonly size: number;
  /** The coalescing windows themselves (close() drains and closes them). */
  readonly windows: WindowStore<ServiceEvent>;
}

/**
 * @example
 * const intake = createIntake({ source, windows: memoryWindowStore, clock, logger, coalesceMs: 500, persistent: false, cap, route, onDropped });
 * intake.take(event);
 */
export function createIntake(options: IntakeOptions): Intake {
  const { source, clock, logger, coalesceMs, persistent, cap, route, onDropped } = options;
  const coalesce = options.windows<ServiceEvent>({
    stage: "coalesce",
    clock,
    logger,
    codec: eventCodec,
    onClose: async (event, closedAt) => {
      if (!(await match(event, false, closedAt)) && persistent) throw new Error("webhook targets lookup failed; the event is matched again in a few seconds");
    },
  });
  const lookups = new Set<Promise<boolean>>();
  // Events of one turn share one lookup per (workspace, event name): a burst of writes costs one
  // query instead of one per event, and holds an array slot per event instead of a promise chain.
  const batches = new Map<string, { events: ServiceEvent[]; from: (number | undefined)[]; done: Promise<boolean> }>();
  let awaiting = 0;

  /** Resolves true once every event went on to its windows or the queue, false when the lookup (or a persisting store) failed; never rejects. */
  const match = (event: ServiceEvent, immediate: boolean, from?: number): Promise<boolean> => {
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
          for (let i = 0; i < events.length; i++) handOn(targets, events[i]!, immediate, froms[i], onward);
          await Promise.all(onward);
          return true;
        },
        (err: unknown) => {
          awaiting -= events.length;
          if (!persistent) onDropped(events.length);
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
        logger.error(persistent ? "webhook event not handed on; it is matched again in a few seconds" : "webhook event not handed on", { workspace: event.workspaceId, event: event.event, error: errorText(err) });
        return false;
      })
      .finally(() => lookups.delete(lookup));
    batches.set(batchKey, { events, from: froms, done: lookup });
    lookups.add(lookup);
    return lookup;
  };

  const handOn = (targets: readonly WebhookTarget[], event: ServiceEvent, immediate: boolean, from: number | undefined, onward: Promise<void>[]): void => {
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
      onDropped(1);
      logger.error("webhook event not delivered", { workspace: event.workspaceId, event: event.event, error: errorText(err) });
    }
  };

  return {
    take(event) {
      const key = coalesceKey(event);
      if (key !== undefined) {
        if (!coalesce.has(key) && cap.full()) return cap.drop({ event: event.event });
        return void coalesce.put(key, event, coalesceMs);
      }
      if (cap.full()) return cap.drop({ event: event.event });
      void match(event, false);
    },
    async record(tx, events) {
      const now = clock.now();
      for (const event of events) {
        // An event outside content.updated is a window of its own that closes at once: matched by the next poll.
        const key = coalesceKey(event);
        await coalesce.put(key ?? `event:${randomUUID()}`, event, key === undefined ? 0 : coalesceMs, { tx, from: now });
      }
    },
    async flush() {
      for (const event of await coalesce.drain()) void match(event, true);
    },
    settled: () => Promise.all([...lookups]).then(() => undefined),
    get size() {
      return coalesce.size + awaiting;
    },
    windows: coalesce,
  };
}
