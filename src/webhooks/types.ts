/**
 * Public types of the webhook dispatcher (`contentsvc/webhooks`). Delivery rules: spec 6.
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

export interface DispatcherOptions {
  /** Finds the active, subscribed webhooks of a workspace. Required. */
  source: WebhookSource;
  /**
   * Allow loopback and private targets (local development and tests). Addresses are still checked
   * at connect time: link-local (cloud metadata), multicast and unspecified stay refused. Default `false`.
   */
  allowPrivateTargets?: boolean;
  /** Hostname resolver used at connect time. Default `dns.promises.lookup(host, { all: true })`. */
  lookup?: LookupAll;
  /** Extra trusted CA certificates (PEM), added to the bundled roots and `NODE_EXTRA_CA_CERTS`. */
  ca?: string | string[];
  /** Deadline of one attempt, connect to response headers (spec 6.6). Default `10_000`. */
  timeoutMs?: number;
  /** Waits between attempts (spec 6.6). Default `[1000, 2000]`, i.e. 3 attempts. */
  retryDelaysMs?: number[];
  /** content.updated coalescing window (spec 6.7.1). Default `500`. */
  coalesceMs?: number;
  /**
   * Connections in use at once (attempts on the wire), all hosts together; the attempts waiting in
   * a host's pool (`maxPerHost`) do not count, so they never hold up another host. Default `64`.
   */
  maxConcurrency?: number;
  /**
   * Connections to one host (`hostname:port`), so attempts on the wire to it at once. As many
   * again may wait in the connection pool (their deadline not yet running), so a connection that
   * frees goes straight on to the next delivery. Default `8`.
   */
  maxPerHost?: number;
  /**
   * Bound on `stats().pending` for emitted events (deliverNow is not capped). Over it the new
   * window or delivery is dropped and logged (at most one line per second). Default `100_000`.
   */
  maxPending?: number;
  /** Default: `Date.now` and global timers. */
  clock?: DispatcherClock;
  /** Default: `consola.withTag("webhooks")`. */
  logger?: DispatcherLogger;
  /**
   * Where coalescing/debounce windows live. `"memory"` (default): per process. A factory (e.g.
   * the Redis one of contentsvc's service) makes windows cluster-wide: one delivery per window
   * across every instance sharing it; one with `deliveries` (the SQL outbox) persists windows and
   * deliveries, and events enter through `Dispatcher.record` inside the write's transaction.
   */
  windows?: "memory" | WindowStoreFactory;
  /**
   * Called after every attempt to a target with `logDeliveries` (beyond spec 6.6: the opt-in
   * delivery log). Holds no secret and no custom header value. A throw or rejection is logged and
   * never affects the delivery.
   */
  onAttempt?: (record: AttemptRecord) => void | Promise<void>;
}

/** A logged delivery to send again (`Dispatcher.redeliver`). */
export interface Redelivery {
  event: EventName;
  format: WebhookFormat;
  /** The body as it was sent; its send timestamp is replaced, everything else is kept. */
  body: string;
}

/** The two window stages of spec 6.7: content.updated coalescing, then a webhook's debounce_ms. */
export type WindowStage = "coalesce" | "debounce";

/** Where and from when a put counts (both optional). */
export interface WindowPut {
  /** The window closes `delayMs` after this time (the event's, or the previous window's close). Default: now. */
  from?: number;
  /** A store that persists (the SQL outbox) writes inside this transaction: the write's own. */
  tx?: Sql;
}

/**
 * The windows of one stage (spec 6.7): the one interface of every window store (memory, Redis,
 * the SQL outbox), all run through test/webhooks/window-store-conformance.ts. A window closes
 * `delayMs` after the LAST value put in it and hands over only that value (spec 6.7.3), to the
 * `onClose` of its context, on exactly one instance of those sharing the store.
 *
 * @example
 * const windows = memoryWindowStore<ServiceEvent>({ stage: "coalesce", clock, logger, codec, onClose: (event) => match(event) });
 * windows.put(`${workspaceId}\0${entryId}`, event, 500);
 */
export interface WindowStore<V> {
  /** Opens the window `key` with `value`, or puts a newer value in it and restarts it. Never throws on store trouble (logged). */
  put(key: string, value: V, delayMs: number, at?: WindowPut): void | Promise<void>;
  /** True when the window `key` is open and held in this process (a store that persists answers false). */
  has(key: string): boolean;
  /** Windows this instance holds (open, closing, or being handed on). */
  readonly size: number;
  /**
   * Graceful stop: closes this instance's windows without `onClose` and returns the values it
   * must send now (spec 6.6 Persistence); a store whose windows outlive the process keeps them and returns none.
   */
  drain(): Promise<V[]>;
  /** Releases connections; called once after the last drain. */
  close(): Promise<void>;
}

/** How a store that keeps values outside the process (the SQL outbox) writes and reads them. */
export interface WindowCodec<V> {
  encode(value: V): StoredItem;
  decode(item: StoredItem): V;
}

/** A value as a persisting store keeps it: its workspace, event name, webhook (debounce and delivery) and JSON payload. Never a secret. */
export interface StoredItem {
  workspaceId: string;
  event: EventName;
  webhookId?: string;
  payload: string;
}

/** What a store factory is given for one stage. */
export interface WindowStoreContext<V> {
  stage: WindowStage;
  clock: DispatcherClock;
  logger: DispatcherLogger;
  codec: WindowCodec<V>;
  /**
   * A window closed and this instance sends it: the next stage. A store that persists waits for
   * the promise before it forgets the window, so a crash in between hands it on again (a possible
   * duplicate, spec 6.6, never a loss).
   */
  onClose(value: V, closedAt: number): void | Promise<void>;
}

/**
 * Creates the store of one stage (the dispatcher makes one per stage). A store that persists the
 * whole pipeline (the SQL outbox) also keeps the queue: `deliveries`.
 */
export type WindowStoreFactory = (<V>(context: WindowStoreContext<V>) => WindowStore<V>) & {
  readonly deliveries?: DeliveryStore;
};

/** How a persisted delivery ended: sent (2xx), dropped, or given back to the store (dispatcher closing). */
export type StoredOutcome = "done" | "dropped" | "release";

/**
 * Queue persistence (the SQL outbox): a delivery is recorded before it is sent and finished after,
 * so a crash or a stop hands it to another instance. Memory and Redis have none.
 */
export interface DeliveryStore {
  /** Where recorded deliveries are sent: ones this instance adds, and ones it takes over from a dead one. */
  start(send: (item: StoredItem) => Promise<StoredOutcome>): void;
  /** Records one delivery (in `at.tx` when given) and sends it through `start`'s `send`. */
  add(item: StoredItem, at?: WindowPut): Promise<void>;
  /** Looks for due windows and deliveries now; resolves when that look is done. */
  poll(): Promise<void>;
  /** Deliveries recorded by this instance and not finished. */
  readonly size: number;
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
