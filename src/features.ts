/**
 * Background parts of the service: the webhook dispatcher subscribed to the event bus.
 * Returns the dispatcher and a function that stops everything gracefully.
 */
import { createDispatcher } from "./webhooks/dispatcher.js";
import { createRedisWindows } from "./webhooks/redis-windows.js";
import type { Dispatcher, DispatcherOptions } from "./webhooks/types.js";
import { createWebhookRepo } from "./storage/webhooks.js";
import { repo } from "./storage/context.js";
import type { ServiceContext } from "./services/context.js";
import { recordAttempt } from "./services/webhook-deliveries.js";

/** Dispatcher tuning an embedder or a test may pass as `createService({ webhooks })`. */
export type WebhookTuning = Omit<DispatcherOptions, "source" | "allowPrivateTargets" | "onAttempt">;

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
): Dispatcher {
  return createDispatcher({
    ...(redisUrl && { windows: createRedisWindows(redisUrl) }),
    ...tuning,
    allowPrivateTargets,
    logger: tuning.logger ?? logger.withTag("webhooks"),
    // The opt-in delivery log (webhooks with log_deliveries on).
    onAttempt: (record) => recordAttempt(getCtx(), record),
    source: {
      targetsFor: (workspaceId, event) => repo(getCtx(), createWebhookRepo).targetsFor(workspaceId, event),
      current: (workspaceId, webhookId) => repo(getCtx(), createWebhookRepo).current(workspaceId, webhookId),
    },
  });
}

export function startFeatures(ctx: ServiceContext): () => Promise<void> {
  const unsubscribe = ctx.bus.on((event) => ctx.webhooks.emit(event));
  return async () => {
    unsubscribe();
    // spec 6.6: graceful shutdown flushes debounced deliveries (best effort).
    await ctx.webhooks.close();
  };
}
