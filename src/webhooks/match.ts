/**
 * Stage "match": which webhooks get an event, and the window keys of spec 6.7 (the coalescing
 * window of an event, the debounce window of an event for one webhook).
 */
import { eventSubjectId, type ServiceEvent } from "../core/events.js";
import { DEBOUNCE_MAX_MS } from "../core/webhook-policy.js";
import { skipReason } from "./skip-reason.js";
import type { WebhookTarget } from "./types.js";

/**
 * The source promises active, subscribed webhooks of the event's workspace; checked again anyway,
 * by the same rule that drops a delivery at send time (skipReason).
 */
export function wantsEvent(target: WebhookTarget, event: ServiceEvent): boolean {
  return target.workspaceId === event.workspaceId && skipReason(target, target, event.event) === undefined;
}

/** spec 6.7.1: the coalescing window of a content.updated event (per entry), else undefined. */
export function coalesceKey(event: ServiceEvent): string | undefined {
  return event.event === "content.updated" ? `${event.workspaceId}\0${event.data.entry.id}` : undefined;
}

/** spec 6.7.2: the webhook's debounce window for `event` (key and delay), or undefined to send at once. */
export function debounceWindow(target: WebhookTarget, event: ServiceEvent): { key: string; delayMs: number } | undefined {
  const delayMs = Math.min(target.debounceMs || 0, DEBOUNCE_MAX_MS);
  if (!(delayMs > 0)) return undefined;
  const key = target.debounceScope === "webhook" ? `${target.id}\0${event.event}` : `${target.id}\0${event.event}\0${eventSubjectId(event)}`;
  return { key, delayMs };
}
