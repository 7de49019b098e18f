/**
 * Public types of the webhook dispatcher (`contentsvc/webhooks`): what it reads (WebhookSource),
 * what it runs on (clock, logger, resolver) and what it answers (Dispatcher, DeliveryResult,
 * DispatcherStats). Its options are in options.ts, the window-store interface in window-store.ts.
 * Delivery rules: spec 6.
 */
import type { EventName, ServiceEvent, WebhookFormat } from "../core/events.js";
import type { Sql } from "../storage/sql.js";
import type { AttemptRecord, WebhookTarget } from "../core/webhook-target.js";

export type { AttemptRecord, WebhookTarget };

/** Where the dispatcher finds the webhooks of a workspace. */
export interface WebhookSource {
  /** Active webhooks of the workspace subscribed to `event`. */
  targetsFor(workspaceId: string, event: EventName): Promise<WebhookTarget[]>;
  /**
   * The webhook `webhookId` as it is now (active or not), `undefined` once deleted. Read before
   * every attempt of an emitted delivery, so a delivery waiting in a debounce window or a retry
   * wait is dropped when its webhook was deleted, deactivated or unsubscribed, and otherwise uses
   * the current URL, headers, secret and format. Without it, attempts use the target read when
   * the event happened.
   */
  current?(workspaceId: string, webhookId: string): Promise<WebhookTarget | undefined>;
}

/**
 * Injectable clock: drives debounce windows, retry waits and body timestamps. The per-attempt
 * deadline and the close() grace are I/O bounds and always use real time.
 */
export interface DispatcherClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Logger shape (consola-compatible). Lines never carry secrets or header values. */
export interface DispatcherLogger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug?(...args: unknown[]): void;
}

/** A resolver returning every address of a hostname (like `dns.promises.lookup(h, {all: true})`). */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** A logged delivery to send again (`Dispatcher.redeliver`). */
export interface Redelivery {
  event: EventName;
  format: WebhookFormat;
  /** The body as it was sent; its send timestamp is replaced, everything else is kept. */
  body: string;
}

/** Where the write path hands its events when the windows persist (inside its own transaction). */
export interface EventOutbox {
  record(tx: Sql, events: ServiceEvent[]): Promise<void>;
}

/** Outcome of one delivery (all its attempts). */
export interface DeliveryResult {
  /** A 2xx was received. */
  ok: boolean;
  /** HTTP status of the last attempt, `null` when no response arrived. */
  status: number | null;
  /** Why the last attempt failed (never contains the secret or header values). */
  error?: string;
  attempts: number;
  /** Wall time from the start of the first attempt to the outcome, retry waits included. */
  durationMs: number;
  /** `X-Service-Signature` value of the last attempt (`sha256=<hex>`). */
  signature: string;
}

export interface DispatcherStats {
  /** Debounce windows + target lookups under way + queued deliveries + deliveries waiting to retry. */
  pending: number;
  /** Attempts currently on the wire. */
  inFlight: number;
  /** Deliveries that got a 2xx. */
  delivered: number;
  /** Deliveries that failed every attempt (or were not retried). */
  failed: number;
  /** Deliveries never completed: pending cap, source errors, lost on close, webhook deleted or deactivated before sending. */
  dropped: number;
}

export interface Dispatcher {
  /** Non-blocking; call after the change committed. Never throws. A no-op when the windows persist (`record` took the events). */
  emit(event: ServiceEvent): void;
  /**
   * Present when the windows persist (the SQL outbox): records the events of a write inside its
   * transaction, so a write that committed has its events stored and one that rolled back has none.
   */
  record?(tx: Sql, events: ServiceEvent[]): Promise<void>;
  /**
   * One signed delivery through the real path (address check, limits), no debouncing.
   * `retries` defaults to `false` (a single attempt, as `svc webhooks test` wants). `reread` reads
   * the webhook again before each attempt (`source.current`), as emitted deliveries do.
   */
  deliverNow(target: WebhookTarget, event: ServiceEvent, opts?: { retries?: boolean; reread?: boolean }): Promise<DeliveryResult>;
  /**
   * Queues `delivery` again to `target` (read by the caller just before): the same body with a new
   * send timestamp, signed with the target's current secret, retried like any delivery, under a
   * new `webhook-id` (returned). Recorded with `redelivery: true` when the target logs deliveries.
   * `done` resolves with the outcome of all its attempts (a caller need not wait for it).
   */
  redeliver(target: WebhookTarget, delivery: Redelivery): { deliveryId: string; done: Promise<DeliveryResult> };
  /** Send every pending debounced delivery now (persisting windows: look for due rows now); resolves once they are handed to the queue. */
  flush(): Promise<void>;
  /**
   * Graceful stop (spec 6.6 Persistence): flush debounced windows, give queued and in-flight
   * deliveries `graceMs` (default 5000), drop retries in backoff (logged as lost), clear timers
   * and close sockets.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  stats(): DispatcherStats;
}
