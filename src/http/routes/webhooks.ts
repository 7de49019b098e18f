/**
 * Webhook configuration (spec 2.6, 4.3, 6.5, 7): owner-only, validated on save, secrets and header
 * values never returned except the secret in the settings view (DESIGN §4.2).
 */
import { getRouterParam, type H3Event } from "h3";
import { badRequest } from "../../core/errors.js";
import {
  applyHeaderUpdate,
  validateDebounce,
  validateEvents,
  validateFormat,
  validateHeadersForCreate,
  validateWebhookUrl,
} from "../../core/webhook-policy.js";
import { listOf } from "../../core/lists.js";
import { isEventName, type EventName, type ServiceEvent } from "../../core/events.js";
import { repo } from "../../storage/context.js";
import { createWebhookRepo } from "../../storage/webhooks.js";
import { access } from "../access.js";
import { assertKnownFields, readJson, readJsonObject } from "../body.js";
import { defineRoutes, type RouteContext } from "../route.js";
import { sampleEvent } from "../../services/sample-events.js";

// log_deliveries and standard_webhooks (beyond the spec, off by default) are set on the webhook or in its settings.
const FLAGS = ["log_deliveries", "standard_webhooks"];
const WRITABLE = new Set(["url", "events", "format", "headers", "active", ...FLAGS]);
const SETTINGS = new Set(["active", "debounce_ms", "debounce_scope", ...FLAGS]);

function assertKeys(body: Record<string, unknown>, allowed: Set<string>, where: string): void {
  const misplaced = Object.keys(body).find((key) => !allowed.has(key) && (SETTINGS.has(key) || key === "secret"));
  if (misplaced) throw badRequest(`${misplaced} is set through the webhook settings (PUT /api/dashboard/webhooks/{id}/settings), not ${where}`);
  assertKnownFields(body, [...allowed], where);
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw badRequest(`${name} must be true or false`);
  return value;
}

const flags = (body: Record<string, unknown>) => ({
  logDeliveries: optionalBoolean(body.log_deliveries, "log_deliveries"),
  standardWebhooks: optionalBoolean(body.standard_webhooks, "standard_webhooks"),
});

const webhooks = (ctx: RouteContext) => repo(ctx.service, createWebhookRepo);
const id = (event: H3Event) => getRouterParam(event, "id")!;
const urlOptions = (ctx: RouteContext) => ({ allowPrivate: ctx.service.options.allowPrivateWebhookTargets });

export const webhookRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/webhooks",
    access: access.owner,
    summary: "List webhooks → {data: [webhook], meta: {total}}",
    handler: async (_event, ctx) => listOf(await webhooks(ctx).list(ctx.workspace.id)),
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks",
    access: access.owner,
    summary: "Create a webhook (secret generated, never returned here)",
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      assertKeys(body, WRITABLE, "POST /api/dashboard/webhooks");
      if (body.url === undefined) throw badRequest("url is required (an https:// URL)");
      const record = await webhooks(ctx).create(ctx.workspace.id, {
        url: validateWebhookUrl(body.url, urlOptions(ctx)),
        events: validateEvents(body.events),
        format: validateFormat(body.format),
        headers: validateHeadersForCreate(body.headers),
        active: optionalBoolean(body.active, "active") ?? true,
        ...flags(body),
      });
      event.res.status = 201;
      return record;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Get a webhook",
    handler: (event, ctx) => webhooks(ctx).get(ctx.workspace.id, id(event)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Update a webhook (custom-header semantics of spec 4.3)",
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      assertKeys(body, WRITABLE, "PUT /api/dashboard/webhooks/{id}");
      const repoW = webhooks(ctx);
      const webhookId = id(event);
      await repoW.get(ctx.workspace.id, webhookId); // 404 before validating against stored headers
      const headers = "headers" in body ? applyHeaderUpdate(await repoW.headers(ctx.workspace.id, webhookId), body.headers) : undefined;
      return repoW.update(ctx.workspace.id, webhookId, {
        url: body.url === undefined ? undefined : validateWebhookUrl(body.url, urlOptions(ctx)),
        events: body.events === undefined ? undefined : validateEvents(body.events),
        format: body.format === undefined ? undefined : validateFormat(body.format),
        active: optionalBoolean(body.active, "active"),
        headers,
        ...flags(body),
      });
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Delete a webhook",
    async handler(event, ctx) {
      await webhooks(ctx).remove(ctx.workspace.id, id(event));
      event.res.status = 204;
      return null;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/webhooks/:id/settings",
    access: access.owner,
    summary: "Webhook settings: active, debounce, and the secret",
    handler: (event, ctx) => webhooks(ctx).settings(ctx.workspace.id, id(event)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/webhooks/:id/settings",
    access: access.owner,
    summary: "Change active, debounce_ms (≤ 3,600,000), debounce_scope (entry | webhook), log_deliveries, standard_webhooks",
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      for (const key of Object.keys(body)) {
        if (!SETTINGS.has(key)) {
          throw badRequest(
            key === "secret"
              ? "The secret cannot be set: rotate it with POST /api/dashboard/webhooks/{id}/rotate-secret"
              : `Unknown setting ${JSON.stringify(key)}; settings are ${[...SETTINGS].join(", ")}`,
          );
        }
      }
      const current = await webhooks(ctx).settings(ctx.workspace.id, id(event));
      const debounce = validateDebounce(body.debounce_ms ?? current.debounce_ms, body.debounce_scope ?? current.debounce_scope);
      return webhooks(ctx).updateSettings(ctx.workspace.id, id(event), { active: optionalBoolean(body.active, "active"), ...debounce, ...flags(body) });
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks/:id/test",
    access: access.owner,
    summary: "Send one signed sample delivery through the real delivery path",
    async handler(event, ctx) {
      const body = ((await readJson(event, ctx.service.options.bodyLimit)) ?? {}) as Record<string, unknown>;
      if (typeof body !== "object" || Array.isArray(body)) throw badRequest("Request body must be a JSON object");
      const name = body.event ?? "content.updated";
      if (!isEventName(name)) throw badRequest(`event must be one of the six event names, got ${JSON.stringify(name)}`);
      const target = await webhooks(ctx).target(ctx.workspace.id, id(event));
      const result = await ctx.service.webhooks.deliverNow(target, sampleEvent(ctx.workspace.id, name as EventName, ctx.service.now()) as ServiceEvent);
      return {
        status: result.status,
        ok: result.ok,
        duration_ms: result.durationMs,
        signature: result.signature,
        ...(result.error ? { error: result.error } : {}),
      };
    },
  },
]);
