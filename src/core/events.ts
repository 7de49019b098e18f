/**
 * Events (spec 3 and 6): the six names, the entry lifecycle that produces them, and the two body
 * formats a delivery can take. Pure: no I/O, no clock (callers pass the timestamp).
 */

/**
 * The six event names of spec 6.
 *
 * @example
 * import { EVENT_NAMES } from "contentsvc";
 * if (!EVENT_NAMES.includes(body.event)) throw new Error("not a contentsvc event");
 */
export const EVENT_NAMES = [
  "content.created",
  "content.updated",
  "content.deleted",
  "content.published",
  "content.unpublished",
  "form.submitted",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export type ContentEventName = Exclude<EventName, "form.submitted">;

export function isEventName(value: unknown): value is EventName {
  return typeof value === "string" && (EVENT_NAMES as readonly string[]).includes(value);
}

/** The two states of an entry (spec 3): every parser and query filter takes exactly these. */
export const ENTRY_STATUSES = ["draft", "published"] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/**
 * An entry (spec 2.5): user fields as stored and the system columns. As the API returns it, every
 * many-to-many field is an id array; in events there is none (see {@link EventEntry}).
 */
export interface Entry {
  id: string;
  _status: EntryStatus;
  _published_at: string | null;
  _created_by: string;
  _created_at: string;
  _updated_at: string;
  [field: string]: unknown;
}

/**
 * An entry as carried in content events: never a many-to-many field (absent as a key, not empty,
 * not null; core/collections.ts toEventEntry).
 */
export type EventEntry = Entry;

/** `data` of the five content events (spec 6.2). */
export interface ContentEventData {
  collection: string;
  entry: EventEntry;
}

/** `data` of form.submitted (spec 6.2): no value a visitor typed, ever (spec 2.7). */
export interface FormEventData {
  form: { id: string; slug: string; name: string };
  formId: string;
  submission: { id: string; _submitted_at: string };
}

/** One event as emitted on the bus after the change committed. */
export type ServiceEvent =
  | { workspaceId: string; event: ContentEventName; data: ContentEventData }
  | { workspaceId: string; event: "form.submitted"; data: FormEventData };

/**
 * Spec section 3: which events a change of one entry fires, in order.
 * `before` is null for a create, `after` is null for a delete.
 *
 * @example
 * lifecycleEvents(null, "published") // ["content.created", "content.published"]
 * lifecycleEvents("published", "draft") // ["content.unpublished"]
 */
export function lifecycleEvents(before: EntryStatus | null, after: EntryStatus | null): ContentEventName[] {
  if (before === null && after === null) return [];
  if (before === null) return after === "published" ? ["content.created", "content.published"] : ["content.created"];
  if (after === null) return ["content.deleted"];
  if (before === after) return ["content.updated"];
  return after === "published" ? ["content.published"] : ["content.unpublished"];
}

/**
 * Spec 2.5 _published_at: set the first time an entry is published, then kept (unpublishing and
 * publishing again do not move it). `previous` is null for a new entry.
 *
 * @example
 * publishedAt(null, "published", at) // at
 * publishedAt("2026-01-01T00:00:00.000Z", "draft", at) // "2026-01-01T00:00:00.000Z"
 */
export function publishedAt(previous: string | null, status: EntryStatus, at: string): string | null {
  return previous ?? (status === "published" ? at : null);
}

/** Webhook body formats (spec 2.6, 6.3). */
export const WEBHOOK_FORMATS = ["service", "code_host_repository_dispatch"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * The JSON body of one delivery. `timestamp` is the time the request is built (spec 6.1), so a
 * debounced or retried delivery carries its send time.
 *
 * Format service: exactly `{event, data, timestamp}` (spec 6.1).
 * Format code_host_repository_dispatch (spec 6.3): `{event_type: "service.<event>", client_payload}`.
 * For form.submitted, which the spec leaves open, client_payload carries `{event, form, formId,
 * submissionId, timestamp}`: the same identifiers as the service format, and still no field value.
 */
export function buildDeliveryBody(format: WebhookFormat, event: ServiceEvent, timestamp: string): Record<string, unknown> {
  if (format === "service") return { event: event.event, data: event.data, timestamp };
  if (event.event === "form.submitted") {
    const d = event.data;
    return {
      event_type: `service.${event.event}`,
      client_payload: { event: event.event, form: d.form.slug, formId: d.formId, submissionId: d.submission.id, timestamp },
    };
  }
  return {
    event_type: `service.${event.event}`,
    client_payload: { event: event.event, collection: event.data.collection, entryId: event.data.entry.id, timestamp },
  };
}

/**
 * The text of `buildDeliveryBody(format, event, timestamp)` as JSON. `dataJson`, when given, is
 * `JSON.stringify(event.data)` made once for every webhook of the event: a service body is then
 * spliced around it (the same characters as serializing the whole object, key order included),
 * so fanning one event out to many webhooks serializes its data once, not once per attempt.
 *
 * @example
 * deliveryBodyText("service", event, "2025-01-01T00:00:00.000Z") === JSON.stringify(buildDeliveryBody("service", event, "2025-01-01T00:00:00.000Z"))
 */
export function deliveryBodyText(format: WebhookFormat, event: ServiceEvent, timestamp: string, dataJson?: string): string {
  if (format !== "service" || dataJson === undefined) return JSON.stringify(buildDeliveryBody(format, event, timestamp));
  return `{"event":${JSON.stringify(event.event)},"data":${dataJson},"timestamp":${JSON.stringify(timestamp)}}`;
}

/**
 * A body sent before, with its send timestamp replaced where the format carries one (service:
 * `timestamp`; code_host_repository_dispatch: `client_payload.timestamp`); everything else is kept
 * as it was, key order included. Used to redeliver a logged delivery.
 *
 * @example
 * restampDeliveryBody("service", '{"event":"content.created","data":{},"timestamp":"2025-01-01T00:00:00.000Z"}', now)
 */
export function restampDeliveryBody(format: WebhookFormat, body: string, timestamp: string): string {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (format === "service" && "timestamp" in parsed) parsed.timestamp = timestamp;
  const payload = parsed.client_payload as Record<string, unknown> | undefined;
  if (format === "code_host_repository_dispatch" && payload && typeof payload === "object" && "timestamp" in payload) payload.timestamp = timestamp;
  return JSON.stringify(parsed);
}

/** The id a receiver should key idempotency on (spec 6.4.4), also used to scope debouncing. */
export function eventSubjectId(event: ServiceEvent): string {
  return event.event === "form.submitted" ? event.data.submission.id : event.data.entry.id;
}
