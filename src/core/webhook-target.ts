/**
 * A webhook as delivery needs it, and what the opt-in delivery log records of an attempt. A plain shape in core because storage builds it from its rows
 * and the dispatcher (`contentsvc/webhooks`, which re-exports it) sends to it.
 */
import type { EventName, WebhookFormat } from "./events.js";

/** One webhook as the dispatcher needs it: secret and header values already decrypted. */
export interface WebhookTarget {
  id: string;
  workspaceId: string;
  /** HTTPS URL (spec 2.6). The address is checked again at connect time (DESIGN 5). */
  url: string;
  events: EventName[];
  active: boolean;
  format: WebhookFormat;
  /** Custom headers (spec 6.5), already decrypted. Never logged. */
  headers: Record<string, string>;
  /** HMAC key (spec 6.4), already decrypted. Never logged. */
  secret: string;
  /** Optional debounce window (spec 6.7.2); 0 = none. */
  debounceMs: number;
  /** `entry`: collapse per (webhook, event, entry); `webhook`: per (webhook, event name). */
  debounceScope: "entry" | "webhook";
  /** Record every attempt through the dispatcher's `onAttempt` (opt-in, beyond spec 6.6). Default false. */
  logDeliveries?: boolean;
  /** Also send the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature. Default false. */
  standardWebhooks?: boolean;
  /**
   * The secret before the last rotation, still signing `webhook-signature` until `until` (ms since
   * the epoch, compared with the send time). X-Service-Signature always uses `secret`. Never logged.
   */
  previousSecret?: { secret: string; until: number };
}

/** One sent attempt, as the delivery log keeps it. */
export interface AttemptRecord {
  webhookId: string;
  workspaceId: string;
  /** `webhook-id` of the delivery: shared by all its attempts. */
  deliveryId: string;
  event: EventName;
  /** Format the body was built in (a redelivery re-stamps it in this format). */
  format: WebhookFormat;
  /** 1-based attempt number within the delivery. */
  attempt: number;
  /** The delivery is a redelivery of a logged one. */
  redelivery: boolean;
  ok: boolean;
  /** Response status, `null` when none arrived. */
  status: number | null;
  error?: string;
  durationMs: number;
  /** Headers the service set (Content-Type, Content-Length, signatures, webhook-*). */
  requestHeaders: Record<string, string>;
  /** Names of the custom headers sent; their values are never recorded. */
  customHeaderNames: string[];
  /** The body as sent (UTF-8). */
  body: string;
  /** Send time, ISO 8601. */
  sentAt: string;
}
