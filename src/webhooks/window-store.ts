/**
 * The window-store interface (spec 6.7): the one seam every store of the pipeline implements
 * (memory-windows.ts, redis-windows.ts, outbox-windows.ts), with the codec and delivery store of
 * a store that persists. test/webhooks/window-store-conformance.test.ts runs each through the same cases.
 */
import type { EventName } from "../core/events.js";
import type { Sql } from "../storage/sql.js";
import type { DispatcherClock, DispatcherLogger } from "./types.js";

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
 * the SQL outbox), all run through test/webhooks/window-store-conformance.test.ts. A window closes
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
