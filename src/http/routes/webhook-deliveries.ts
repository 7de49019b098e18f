/**
 * Opt-in webhook features beyond spec 6.6 (owner only, like all webhook management): the delivery
 * log, redelivery of a logged attempt, and secret rotation. The new secret appears once, in the
 * rotate response, the same way the settings view shows the current one (DESIGN §4.2).
 */
import { getRouterParam } from "h3";
import { badRequest } from "../../core/errors.js";
import { listOf } from "../../core/lists.js";
import { listDeliveries, redeliver, rotateSecret } from "../../services/webhook-deliveries.js";
import { access } from "../access.js";
import { assertKnownFields, readJson } from "../body.js";
import { deliveryAttemptSchema, redeliverySchema, rotatedSecretSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export const webhookDeliveryRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/webhooks/:id/deliveries",
    access: access.owner,
    summary: "Recent deliveries of a webhook with log_deliveries on (last 100 attempts) → {data, meta: {total}}",
    response: { list: "whole", schema: deliveryAttemptSchema, description: "Logged attempts, newest first" },
    handler: async (event, ctx) => listOf(await listDeliveries(ctx.service, ctx.workspace.id, getRouterParam(event, "id")!)),
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks/:id/deliveries/:delivery_id/redeliver",
    access: access.owner,
    summary: "Send a logged delivery again (same body, new timestamp, current secret; retried and logged)",
    response: { status: 202, schema: redeliverySchema, description: "The new delivery's id and the logged attempt it repeats" },
    async handler(event, ctx) {
      const { delivery_id, redelivery_of } = await redeliver(ctx.service, ctx.workspace.id, getRouterParam(event, "id")!, getRouterParam(event, "delivery_id")!);
      event.res.status = 202;
      return { delivery_id, redelivery_of };
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/webhooks/:id/rotate-secret",
    access: access.owner,
    summary: "New secret, returned once; the old one still signs webhook-signature for window_seconds (default 86400)",
    response: { schema: rotatedSecretSchema, description: "The new secret, shown this once here" },
    async handler(event, ctx) {
      const body = (await readJson(event, ctx.service.options.bodyLimit)) ?? {};
      if (typeof body !== "object" || Array.isArray(body)) throw badRequest("Request body must be a JSON object");
      assertKnownFields(body as Record<string, unknown>, ["window_seconds"], "POST /api/dashboard/webhooks/{id}/rotate-secret");
      const { window_seconds: windowSeconds } = body as { window_seconds?: unknown };
      return rotateSecret(ctx.service, ctx.workspace.id, getRouterParam(event, "id")!, windowSeconds);
    },
  },
]);
