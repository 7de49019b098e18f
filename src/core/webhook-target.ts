/**
 * A webhook as delivery needs it. A plain shape in core because storage builds it from its rows
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
