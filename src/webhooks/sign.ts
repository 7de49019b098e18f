/**
 * Hot-path signing (spec 6.4) with node:crypto. The portable, Web Crypto verifier for receivers is
 * `contentsvc/signature`; both produce the same `sha256=<lowercase hex>` value.
 */
import { createHmac } from "node:crypto";
import { deliveryBodyText, type ServiceEvent, type WebhookFormat } from "../core/events.js";
import { standardWebhookKey, STANDARD_WEBHOOK_HEADERS } from "../core/signature.js";
import type { WebhookTarget } from "../core/webhook-target.js";

/**
 * `sha256=` + lowercase-hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret.
 *
 * @example
 * const body = Buffer.from('{"event":"content.created"}');
 * signBody("whsec", body); // "sha256=5c0f…"
 */
export function signBody(secret: string, body: Buffer | Uint8Array | string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * The body bytes of one attempt: serialized once, then signed and written as the same Buffer.
 * `timestamp` is the send time of this attempt (spec 6.1); `dataJson` is the event's data as JSON
 * when the caller already has it (deliveryBodyText).
 *
 * @example
 * const body = toDeliveryBody("service", event, new Date().toISOString());
 * const signature = signBody(secret, body);
 */
export function toDeliveryBody(format: WebhookFormat, event: ServiceEvent, timestamp: string, dataJson?: string): Buffer {
  return Buffer.from(deliveryBodyText(format, event, timestamp, dataJson), "utf8");
}

/**
 * A signed body for one attempt.
 *
 * @example
 * const { body, signature } = signDelivery(target, event, new Date().toISOString());
 */
export function signDelivery(
  target: { format: WebhookFormat; secret: string },
  event: ServiceEvent,
  timestamp: string,
): { body: Buffer; signature: string } {
  const body = toDeliveryBody(target.format, event, timestamp);
  return { body, signature: signBody(target.secret, body) };
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the same on every attempt of a
 * delivery), `webhook-timestamp` (the send time, seconds) and `webhook-signature`, signed with the
 * current secret and, while its rotation window is open at `sentAt`, the previous one too
 * (space-separated, current first). The key convention is core/signature.ts's.
 *
 * @example
 * standardWebhookHeaders(target, "msg_…", body, Date.now())["webhook-signature"] // "v1,…"
 */
export function standardWebhookHeaders(
  target: Pick<WebhookTarget, "secret" | "previousSecret">,
  deliveryId: string,
  body: Buffer,
  sentAt: number,
): Record<string, string> {
  const timestamp = Math.floor(sentAt / 1000);
  const sign = (secret: string) =>
    `v1,${createHmac("sha256", standardWebhookKey(secret)).update(`${deliveryId}.${timestamp}.`).update(body).digest("base64")}`;
  const previous = target.previousSecret && sentAt < target.previousSecret.until ? [sign(target.previousSecret.secret)] : [];
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: deliveryId,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: [sign(target.secret), ...previous].join(" "),
  };
}
