/**
 * Whether a webhook, as it is, still wants an event: the one rule behind matching an event
 * (match.ts) and dropping a waiting delivery before it is sent (reread-before-send.ts).
 */
import type { EventName } from "../core/events.js";
import type { WebhookTarget } from "./types.js";

/**
 * The reason not to send `event` to the webhook as it is now (`current`), or undefined to send it.
 *
 * @example
 * skipReason(undefined, held, "content.updated"); // "the webhook was deleted"
 */
export function skipReason(current: WebhookTarget | undefined, held: WebhookTarget | { workspaceId: string }, event: EventName): string | undefined {
  if (!current || current.workspaceId !== held.workspaceId) return "the webhook was deleted";
  if (!current.active) return "the webhook was deactivated";
  if (!current.events.includes(event)) return `the webhook no longer subscribes to ${event}`;
  return undefined;
}
