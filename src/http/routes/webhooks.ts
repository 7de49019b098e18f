/**
 * Webhook configuration (spec 2.6, 4.3, 6.5, 7): owner-only; bodies are validated by
 * services/webhooks.ts; secrets and header values never returned except the secret in the settings
 * view (DESIGN §4.2).
 */
import { getRouterParam, type H3Event } from "h3";
import { badRequest } from "../../core/errors.js";
import { listOf } from "../../core/lists.js";
import { webhookCreateSchema, webhookSettingsSchema, webhookTestSchema, webhookUpdateSchema } from "../../core/webhook-policy.js";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  getWebhookSettings,
  listWebhooks,
  testWebhook,
  updateWebhook,
  updateWebhookSettings,
} from "../../services/webhooks.js";
import { access } from "../access.js";
import { readJson, readJsonObject } from "../body.js";
import { testDeliverySchema, webhookSchema, webhookSettingsOut } from "../responses.js";
import { defineRoutes } from "../route.js";

const id = (event: H3Event) => getRouterParam(event, "id")!;

export const webhookRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/webhooks",
    access: access.owner,
    summary: "List webhooks → {data: [webhook], meta: {total}}",
    response: { list: "whole", schema: webhookSchema, description: "Webhooks, oldest first; never secrets or header values" },
    handler: async (_event, ctx) => listOf(await listWebhooks(ctx.service, ctx.workspace.id)),
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks",
    access: access.owner,
    summary: "Create a webhook (secret generated, never returned here)",
    body: { schema: webhookCreateSchema },
    response: { status: 201, schema: webhookSchema, description: "The webhook; no secret, no header values" },
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      const record = await createWebhook(ctx.service, ctx.workspace.id, body, "POST /api/dashboard/webhooks");
      event.res.status = 201;
      return record;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Get a webhook",
    response: { schema: webhookSchema, description: "The webhook" },
    handler: (event, ctx) => getWebhook(ctx.service, ctx.workspace.id, id(event)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Update a webhook (custom-header semantics of spec 4.3)",
    body: { schema: webhookUpdateSchema },
    response: { schema: webhookSchema, description: "The webhook" },
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      return updateWebhook(ctx.service, ctx.workspace.id, id(event), body, "PUT /api/dashboard/webhooks/{id}");
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/webhooks/:id",
    access: access.owner,
    summary: "Delete a webhook",
    response: { status: 204 },
    async handler(event, ctx) {
      await deleteWebhook(ctx.service, ctx.workspace.id, id(event));
      event.res.status = 204;
      return null;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/webhooks/:id/settings",
    access: access.owner,
    summary: "Webhook settings: active, debounce, and the secret",
    response: { schema: webhookSettingsOut, description: "The settings, the one place the secret appears" },
    handler: (event, ctx) => getWebhookSettings(ctx.service, ctx.workspace.id, id(event)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/webhooks/:id/settings",
    access: access.owner,
    summary: "Change active, debounce_ms (≤ 3,600,000), debounce_scope (entry | webhook), log_deliveries, standard_webhooks",
    body: { schema: webhookSettingsSchema },
    response: { schema: webhookSettingsOut, description: "The settings as stored" },
    async handler(event, ctx) {
      const body = await readJsonObject(event, ctx.service.options.bodyLimit);
      return updateWebhookSettings(ctx.service, ctx.workspace.id, id(event), body);
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks/:id/test",
    access: access.owner,
    summary: "Send one signed sample delivery through the real delivery path",
    body: { optional: true, schema: webhookTestSchema },
    response: { schema: testDeliverySchema, description: "The delivery's outcome" },
    async handler(event, ctx) {
      const body = ((await readJson(event, ctx.service.options.bodyLimit)) ?? {}) as Record<string, unknown>;
      if (typeof body !== "object" || Array.isArray(body)) throw badRequest("Request body must be a JSON object");
      return testWebhook(ctx.service, ctx.workspace.id, id(event), body.event);
    },
  },
]);
