/**
 * Dispatcher options: what each one means, and their validation once at creation (the error names
 * the option), defaults applied.
 */
import { consola } from "consola";
import { systemClock } from "./clock.js";
import type { AttemptRecord, DispatcherClock, DispatcherLogger, LookupAll, WebhookSource } from "./types.js";
import type { WindowStoreFactory } from "./window-store.js";

/** Options of createDispatcher; each default is applied by resolveOptions. */
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

/** spec 6.6 and 6.7.1 defaults, plus the dispatcher's own bounds. */
export const DEFAULTS = {
  timeoutMs: 10_000,
  retryDelaysMs: [1000, 2000],
  coalesceMs: 500,
  maxConcurrency: 64,
  maxPerHost: 8,
  maxPending: 100_000,
  graceMs: 5000,
} as const;

/** The dispatcher's options with every default applied. */
export interface DispatcherSettings extends Required<Omit<DispatcherOptions, "lookup" | "ca" | "onAttempt">> {
  lookup: DispatcherOptions["lookup"];
  ca: DispatcherOptions["ca"];
  onAttempt: DispatcherOptions["onAttempt"];
}

/**
 * @example
 * resolveOptions({ source, timeoutMs: 0 }); // throws "contentsvc/webhooks: option timeoutMs must be a positive number"
 */
export function resolveOptions(options: DispatcherOptions): DispatcherSettings {
  if (!options || typeof options.source?.targetsFor !== "function") {
    throw new TypeError("contentsvc/webhooks: option source must have a targetsFor(workspaceId, event) function");
  }
  const resolved: DispatcherSettings = {
    source: options.source,
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    lookup: options.lookup,
    ca: options.ca,
    onAttempt: options.onAttempt,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    retryDelaysMs: [...(options.retryDelaysMs ?? DEFAULTS.retryDelaysMs)],
    coalesceMs: options.coalesceMs ?? DEFAULTS.coalesceMs,
    maxConcurrency: options.maxConcurrency ?? DEFAULTS.maxConcurrency,
    maxPerHost: options.maxPerHost ?? DEFAULTS.maxPerHost,
    maxPending: options.maxPending ?? DEFAULTS.maxPending,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? (consola.withTag("webhooks") as DispatcherLogger),
    windows: options.windows ?? "memory",
  };
  positive("timeoutMs", resolved.timeoutMs);
  atLeast("coalesceMs", resolved.coalesceMs, 0);
  integer("maxConcurrency", resolved.maxConcurrency);
  integer("maxPerHost", resolved.maxPerHost);
  integer("maxPending", resolved.maxPending);
  if (!resolved.retryDelaysMs.every((ms) => Number.isFinite(ms) && ms >= 0)) {
    throw new TypeError("contentsvc/webhooks: option retryDelaysMs must be a list of non-negative numbers");
  }
  if (resolved.windows !== "memory" && typeof resolved.windows !== "function") {
    throw new TypeError('contentsvc/webhooks: option windows must be "memory" or a window store factory');
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new TypeError("contentsvc/webhooks: option lookup must be a function");
  }
  return resolved;
}

function positive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) throw new TypeError(`contentsvc/webhooks: option ${name} must be a positive number`);
}

function atLeast(name: string, value: number, min: number): void {
  if (!(Number.isFinite(value) && value >= min)) throw new TypeError(`contentsvc/webhooks: option ${name} must be a number >= ${min}`);
}

function integer(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new TypeError(`contentsvc/webhooks: option ${name} must be an integer >= 1`);
}
