/**
 * Background parts of the service: the webhook dispatcher subscribed to the event bus.
 * Returns the dispatcher and a function that stops everything gracefully.
 */
import { createDispatcher } from "./webhooks/dispatcher.js";
import { createRedisWindows } from "./webhooks/redis-windows.js";
import { createDurableDispatcher, type DurableDispatcher } from "./webhooks/durable.js";
import { DEFAULTS } from "./webhooks/options.js";
import type { Dispatcher, DispatcherClock, DispatcherOptions, WebhookSource } from "./webhooks/types.js";
import { createOutboxRepo } from "./storage/webhook-outbox.js";
import type { Sql } from "./storage/sql.js";
import type { ServiceContext } from "./services/context.js";
import { recordAttempt } from "./services/webhook-deliveries.js";

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

/** Resolves `durable` against the database: "follow" records only while a durable instance is alive. */
export async function deliveryMode(sql: Sql, durable: DurableTuning["durable"]): Promise<DeliveryMode> {
  if (durable !== undefined && typeof durable !== "boolean" && durable !== "follow") {
    throw new Error(`contentsvc: invalid option webhooks.durable: must be true, false or "follow"`);
  }
  if (durable === true) return "durable";
  if (durable !== "follow") return "memory";
  return (await createOutboxRepo(sql).served(Date.now())) ? "record" : "memory";
}

/**
 * The service's dispatcher. With `redisUrl`, coalescing and debounce windows are cluster-wide
 * (docs/scaling.md) unless the tuning names its own `windows`.
 */
export function createWebhookDispatcher(
  getCtx: () => ServiceContext,
  logger: ServiceContext["logger"],
  allowPrivateTargets: boolean,
  tuning: WebhookTuning = {},
  redisUrl?: string,
  outbox?: { sql: Sql; mode: Exclude<DeliveryMode, "memory"> },
): Dispatcher | DurableDispatcher {
  const { durable: _durable, durableLeaseMs, durablePollMs, ...dispatcherTuning } = tuning;
  const source: Required<WebhookSource> = {
    targetsFor: (workspaceId, event) => getCtx().db.webhooks.targetsFor(workspaceId, event),
    current: (workspaceId, webhookId) => getCtx().db.webhooks.current(workspaceId, webhookId),
  };
  const webhookLogger = tuning.logger ?? logger.withTag("webhooks");
  const inner = createDispatcher({
    // Durable windows live in the outbox; Redis windows serve the in-memory mode only.
    ...(redisUrl && !outbox && { windows: createRedisWindows(redisUrl) }),
    ...dispatcherTuning,
    allowPrivateTargets,
    logger: webhookLogger,
    // The opt-in delivery log (webhooks with log_deliveries on).
    onAttempt: (record) => recordAttempt(getCtx(), record),
    source,
  });
  if (!outbox) return inner;
  return createDurableDispatcher({
    sql: outbox.sql,
    inner,
    source,
    clock: tuning.clock ?? realClock,
    logger: webhookLogger,
    coalesceMs: tuning.coalesceMs ?? DEFAULTS.coalesceMs,
    deliver: outbox.mode === "durable",
    leaseMs: durableLeaseMs,
    pollMs: durablePollMs,
  });
}

const realClock: DispatcherClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function startFeatures(ctx: ServiceContext): () => Promise<void> {
  const unsubscribe = ctx.bus.on((event) => ctx.webhooks.emit(event));
  return async () => {
    unsubscribe();
    // spec 6.6: graceful shutdown flushes debounced deliveries (best effort).
    await ctx.webhooks.close();
  };
}
