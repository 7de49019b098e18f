/**
 * The dispatcher of a contentsvc service (createService): the one pipeline of dispatcher.ts over
 * the window store the service's options choose: the SQL outbox with `webhooks.durable`, Redis
 * with `redis`, memory otherwise.
 */
import { createDispatcher } from "./dispatcher.js";
import { createRedisWindows } from "./redis-windows.js";
import { createOutboxWindows } from "./outbox-windows.js";
import type { DispatcherOptions } from "./options.js";
import type { AttemptRecord, Dispatcher, DispatcherLogger, WebhookSource } from "./types.js";
import type { WindowStoreFactory } from "./window-store.js";
import { createOutboxRepo } from "../storage/webhook-outbox.js";
import type { Sql } from "../storage/sql.js";

/** Dispatcher tuning an embedder or a test may pass as `createService({ webhooks })`. */
export type WebhookTuning = Omit<DispatcherOptions, "source" | "allowPrivateTargets" | "onAttempt"> & DurableTuning;

/** Durable delivery (docs/webhooks.md "Durable delivery"). */
export interface DurableTuning {
  /**
   * `true`: record events in the database outbox inside the writing transaction and deliver from
   * it (survives crashes and restarts; several instances share the work). `"follow"` (what CLI
   * commands use): record only, while an instance with `durable: true` serves this database;
   * otherwise deliver in memory. Default `false`: in memory (spec 6.6).
   */
  durable?: boolean | "follow";
  /** Lease of a claimed outbox row in ms (a dead instance's rows are taken over after it). Default 30000. */
  durableLeaseMs?: number;
  /** Outbox poll interval in ms. Default 250. */
  durablePollMs?: number;
}

/** How this service delivers: in memory, from the outbox, or only recording into it. */
export type DeliveryMode = "memory" | "durable" | "record";

/**
 * Resolves `durable` against the database: "follow" records only while a durable instance is alive.
 *
 * @example
 * await deliveryMode(sql, "follow"); // "record" while `svc serve --durable-webhooks` runs, else "memory"
 */
export async function deliveryMode(sql: Sql, durable: DurableTuning["durable"]): Promise<DeliveryMode> {
  if (durable !== undefined && typeof durable !== "boolean" && durable !== "follow") {
    throw new Error(`contentsvc: invalid option webhooks.durable: must be true, false or "follow"`);
  }
  if (durable === true) return "durable";
  if (durable !== "follow") return "memory";
  return (await createOutboxRepo(sql).served(Date.now())) ? "record" : "memory";
}

/** Options of {@link createServiceDispatcher}. */
export interface ServiceDispatcherOptions {
  /** The service's webhooks: the match and the re-read before each attempt. */
  source: Required<WebhookSource>;
  /** The service's logger; the dispatcher logs under the tag `webhooks` (unless `tuning.logger`). */
  logger: DispatcherLogger & { withTag(tag: string): DispatcherLogger };
  /** The opt-in delivery log (webhooks with log_deliveries on). */
  onAttempt: (record: AttemptRecord) => void | Promise<void>;
  /** Loopback and private targets allowed (development). Default false. */
  allowPrivateTargets?: boolean;
  /** `createService({ webhooks })`. Default `{}`. */
  tuning?: WebhookTuning;
  /** `createService({ redis })`: cluster-wide windows in memory mode (the outbox is cluster-wide already). */
  redisUrl?: string;
  /** The database and the mode `deliveryMode` chose. Default memory. */
  mode?: DeliveryMode;
  sql?: Sql;
}

/**
 * @example
 * const webhooks = createServiceDispatcher({ source, logger, onAttempt, tuning: { durable: true }, mode: "durable", sql });
 * await sql.transaction(async (tx) => { ...write...; await webhooks.record?.(tx, events); });
 */
export function createServiceDispatcher(options: ServiceDispatcherOptions): Dispatcher {
  const { durable: _durable, durableLeaseMs, durablePollMs, ...tuning } = options.tuning ?? {};
  const mode = options.mode ?? "memory";
  if (mode !== "memory" && !options.sql) throw new TypeError(`contentsvc/webhooks: option sql is required in ${mode} mode`);
  const windows: WindowStoreFactory | undefined =
    mode !== "memory"
      ? createOutboxWindows({ sql: options.sql!, deliver: mode === "durable", leaseMs: durableLeaseMs, pollMs: durablePollMs })
      : options.redisUrl
        ? createRedisWindows(options.redisUrl)
        : undefined;
  return createDispatcher({
    // The tuning's own windows win in memory mode (tests); the outbox always wins in durable modes.
    ...(windows && mode === "memory" && { windows }),
    ...tuning,
    ...(windows && mode !== "memory" && { windows }),
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    logger: tuning.logger ?? options.logger.withTag("webhooks"),
    onAttempt: options.onAttempt,
    source: options.source,
  });
}
