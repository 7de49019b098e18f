/**
 * Background parts of the service: the webhook dispatcher subscribed to the event bus.
 * Returns the dispatcher and a function that stops everything gracefully.
 */
import { createDispatcher } from "./webhooks/dispatcher.js";
import type { Dispatcher, DispatcherOptions } from "./webhooks/types.js";
import { createWebhookRepo } from "./storage/webhooks.js";
import { repo, type ServiceContext } from "./service-context.js";

/** Dispatcher tuning an embedder or a test may pass as `createService({ webhooks })`. */
export type WebhookTuning = Omit<DispatcherOptions, "source" | "allowPrivateTargets">;

export function createWebhookDispatcher(
  getCtx: () => ServiceContext,
  logger: ServiceContext["logger"],
  allowPrivateTargets: boolean,
  tuning: WebhookTuning = {},
): Dispatcher {
  return createDispatcher({
    ...tuning,
    allowPrivateTargets,
    logger: tuning.logger ?? logger.withTag("webhooks"),
    source: { targetsFor: (workspaceId, event) => repo(getCtx(), createWebhookRepo).targetsFor(workspaceId, event) },
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
