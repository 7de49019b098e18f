/**
 * Webhook configuration use cases (spec 2.6, 4.3, 6.5, 7), shared by HTTP and the CLI: every body
 * is validated here (the pure rules are core/webhook-policy.ts) before storage sees it. Secrets and
 * header values are never returned, except the secret in the settings view (DESIGN §4.2).
 *
 * @example
 * const hook = await createWebhook(ctx, ws.id, { url: "https://example.com/hook", events: ["content.published"] });
 */
import { fieldsOf, parseWithSchema } from "../core/body-schema.js";
import { badRequest } from "../core/errors.js";
import { assertKnownFields } from "../core/fields.js";
import {
  applyHeaderUpdate,
  validateHeadersForCreate,
  validateWebhookUrl,
  webhookCreateSchema,
  webhookSettingsSchema,
  webhookTestSchema,
  webhookUpdateSchema,
} from "../core/webhook-policy.js";
import type { WebhookRecord, WebhookSettings } from "../storage/webhooks.js";
import type { ServiceContext } from "./context.js";
import { sampleEvent } from "./sample-events.js";

export type { WebhookRecord, WebhookSettings };

/** What a test delivery reports (spec 4.3): the receiver's status, timing and the signature sent. */
export interface WebhookTestResult {
  status: number | null;
  ok: boolean;
  duration_ms: number;
  signature: string;
  error?: string;
}

/** Fields of a webhook body; the settings are changed only through updateWebhookSettings. */
const WRITABLE = fieldsOf(webhookCreateSchema);
const SETTINGS = fieldsOf(webhookSettingsSchema);

const urlOptions = (ctx: ServiceContext) => ({ allowPrivate: ctx.options.allowPrivateWebhookTargets });

/** 400 for a field a webhook body does not take, pointing settings and the secret to their own place. */
function assertWebhookFields(body: Record<string, unknown>, where: string): void {
  const misplaced = Object.keys(body).find((key) => !WRITABLE.includes(key) && (SETTINGS.includes(key) || key === "secret"));
  if (misplaced) throw badRequest(`${misplaced} is set through the webhook settings (PUT /api/dashboard/webhooks/{id}/settings), not ${where}`);
  assertKnownFields(body, WRITABLE, where);
}

/** The opt-in options beyond the spec (off by default), taken by a webhook body and the settings alike. */
const flags = (input: { log_deliveries?: boolean; standard_webhooks?: boolean }) => ({
  logDeliveries: input.log_deliveries,
  standardWebhooks: input.standard_webhooks,
});

/** Every webhook of a workspace, oldest first. */
export function listWebhooks(ctx: ServiceContext, workspaceId: string): Promise<WebhookRecord[]> {
  return ctx.db.webhooks.list(workspaceId);
}

/** One webhook, or 404. */
export function getWebhook(ctx: ServiceContext, workspaceId: string, id: string): Promise<WebhookRecord> {
  return ctx.db.webhooks.get(workspaceId, id);
}

/**
 * Creates a webhook from `{url, events, format?, headers?, active?}`; the secret is generated and
 * not returned here. 400 naming what is wrong (a private target unless the service allows them,
 * more than 50 webhooks); `where` names the operation in the message about an unknown field.
 */
export function createWebhook(ctx: ServiceContext, workspaceId: string, body: Record<string, unknown>, where = "POST /api/dashboard/webhooks"): Promise<WebhookRecord> {
  assertWebhookFields(body, where);
  const input = parseWithSchema(webhookCreateSchema, body, { named: true });
  return ctx.db.webhooks.create(workspaceId, {
    url: validateWebhookUrl(input.url, urlOptions(ctx)),
    events: input.events,
    format: input.format ?? "service",
    headers: validateHeadersForCreate(input.headers),
    active: input.active ?? true,
    ...flags(input),
  });
}

/**
 * Changes a webhook: any of `{url, events, format, headers, active}`; headers follow the custom
 * header semantics of spec 4.3 against the stored ones. 404 before any validation for an unknown id.
 */
export async function updateWebhook(ctx: ServiceContext, workspaceId: string, id: string, body: Record<string, unknown>, where = "PUT /api/dashboard/webhooks/{id}"): Promise<WebhookRecord> {
  assertWebhookFields(body, where);
  const repoW = ctx.db.webhooks;
  await repoW.get(workspaceId, id); // 404 before validating against stored headers
  const input = parseWithSchema(webhookUpdateSchema, body, { named: true });
  const headers = "headers" in body ? applyHeaderUpdate(await repoW.headers(workspaceId, id), input.headers) : undefined;
  return repoW.update(workspaceId, id, {
    url: input.url === undefined ? undefined : validateWebhookUrl(input.url, urlOptions(ctx)),
    events: input.events,
    // null asks for the default format; absent leaves it unchanged
    format: input.format === undefined ? undefined : (input.format ?? "service"),
    active: input.active,
    headers,
    ...flags(input),
  });
}

/** Deletes a webhook; 404 for an unknown id. */
export function deleteWebhook(ctx: ServiceContext, workspaceId: string, id: string): Promise<void> {
  return ctx.db.webhooks.remove(workspaceId, id);
}

/** The settings view: active, debounce and the secret (the one place it appears). */
export function getWebhookSettings(ctx: ServiceContext, workspaceId: string, id: string): Promise<WebhookSettings> {
  return ctx.db.webhooks.settings(workspaceId, id);
}

/**
 * Changes `{active?, debounce_ms?, debounce_scope?, log_deliveries?, standard_webhooks?}`;
 * debounce_ms up to one hour. The secret cannot be set (rotateSecret in webhook-deliveries.ts
 * replaces it); any other field is 400.
 */
export async function updateWebhookSettings(ctx: ServiceContext, workspaceId: string, id: string, body: Record<string, unknown>): Promise<WebhookSettings> {
  for (const key of Object.keys(body)) {
    if (!SETTINGS.includes(key)) {
      throw badRequest(
        key === "secret"
          ? "The secret cannot be set: rotate it with POST /api/dashboard/webhooks/{id}/rotate-secret"
          : `Unknown setting ${JSON.stringify(key)}; settings are ${SETTINGS.join(", ")}`,
      );
    }
  }
  const current = await ctx.db.webhooks.settings(workspaceId, id);
  const input = parseWithSchema(webhookSettingsSchema, body, { named: true });
  return ctx.db.webhooks.updateSettings(workspaceId, id, {
    active: input.active,
    debounce_ms: input.debounce_ms ?? current.debounce_ms,
    debounce_scope: input.debounce_scope ?? current.debounce_scope,
    ...flags(input),
  });
}

/**
 * Sends one signed sample delivery through the real delivery path: of `event` when named (any of
 * the six: a test may try an event before subscribing to it), else of the first event the webhook
 * is subscribed to, so the receiver sees what it will really get.
 */
export async function testWebhook(ctx: ServiceContext, workspaceId: string, id: string, event?: unknown): Promise<WebhookTestResult> {
  const input = parseWithSchema(webhookTestSchema, { event }, { named: true });
  const target = await ctx.db.webhooks.target(workspaceId, id);
  const name = input.event ?? target.events[0] ?? "content.updated";
  const result = await ctx.webhooks.deliverNow(target, sampleEvent(workspaceId, name, ctx.now()));
  return {
    status: result.status,
    ok: result.ok,
    duration_ms: result.durationMs,
    signature: result.signature,
    ...(result.error ? { error: result.error } : {}),
  };
}
