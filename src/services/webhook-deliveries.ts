/**
 * Opt-in webhook features beyond spec 6.6, for the owner: the delivery log of a webhook, redelivery
 * of a logged attempt, and secret rotation with a window in which both secrets sign the Standard
 * Webhooks header. The HTTP routes and the CLI call these; none of them reads storage itself.
 */
import { badRequest } from "../core/errors.js";
import type { DeliveryLogRecord } from "../storage/webhook-deliveries.js";
import type { AttemptRecord, DeliveryResult } from "../webhooks/types.js";
import type { ServiceContext } from "./context.js";

export type { DeliveryLogRecord };

/** Rotation window when the request names none: 24 hours. */
export const DEFAULT_ROTATION_WINDOW_SECONDS = 86_400;
/** Longest rotation window: 30 days. */
export const MAX_ROTATION_WINDOW_SECONDS = 30 * 86_400;

/**
 * The webhook's logged attempts, newest first (at most 100). 404 when the webhook is not in the workspace.
 *
 * @example
 * const rows = await listDeliveries(ctx, workspace.id, webhookId);
 */
export async function listDeliveries(ctx: ServiceContext, workspaceId: string, webhookId: string): Promise<DeliveryLogRecord[]> {
  await ctx.db.webhooks.get(workspaceId, webhookId);
  return ctx.db.deliveryLog.list(workspaceId, webhookId);
}

/**
 * Sends a logged attempt's body again through the normal queue (retries apply): new send
 * timestamp, the webhook's current URL, headers and secret, a new webhook-id. `done` settles with
 * the outcome (the HTTP route answers without waiting; the CLI waits).
 *
 * @example
 * const { delivery_id } = await redeliver(ctx, workspace.id, webhookId, logged.id);
 */
export async function redeliver(
  ctx: ServiceContext,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery_id: string; redelivery_of: string; done: Promise<DeliveryResult> }> {
  const target = await ctx.db.webhooks.target(workspaceId, webhookId);
  const logged = await ctx.db.deliveryLog.get(workspaceId, webhookId, deliveryId);
  const { deliveryId: sent, done } = ctx.webhooks.redeliver(target, { event: logged.event, format: logged.format, body: logged.body });
  return { delivery_id: sent, redelivery_of: logged.id, done };
}

/**
 * A new secret, returned once. For `windowSeconds` (default 24 h, 0 ends the old secret at once)
 * the previous secret still signs webhook-signature next to the new one; X-Service-Signature uses
 * the new one from now on.
 *
 * @example
 * const { secret, previous_secret_until } = await rotateSecret(ctx, workspace.id, webhookId, 3600);
 */
export async function rotateSecret(
  ctx: ServiceContext,
  workspaceId: string,
  webhookId: string,
  windowSeconds: unknown = DEFAULT_ROTATION_WINDOW_SECONDS,
): Promise<{ secret: string; previous_secret_until: string | null }> {
  if (typeof windowSeconds !== "number" || !Number.isInteger(windowSeconds) || windowSeconds < 0 || windowSeconds > MAX_ROTATION_WINDOW_SECONDS) {
    throw badRequest(`window_seconds must be an integer from 0 to ${MAX_ROTATION_WINDOW_SECONDS} (30 days)`);
  }
  return ctx.db.webhooks.rotateSecret(workspaceId, webhookId, windowSeconds * 1000);
}

/** The dispatcher's `onAttempt`: writes one attempt to the log. */
export function recordAttempt(ctx: ServiceContext, record: AttemptRecord): Promise<void> {
  return ctx.db.deliveryLog.record(record);
}
