/**
 * What the windows of the pipeline hold, and how a store that persists (the SQL outbox) writes it:
 * events in the coalescing stage, pending deliveries (target, event name, data as JSON text) in
 * the debounce stage; and the body builder shared by every webhook an event goes to.
 *
 * A debounce window holds the event's data as JSON text, one string shared by every webhook's
 * window of that event (a third of the object graph's size, and no reference into the caller's
 * objects), parsed back when the window closes; never a signed body: the body is built and signed
 * per attempt, so its timestamp is the send time (spec 6.1).
 */
import type { ServiceEvent } from "../core/events.js";
import { toDeliveryBody } from "./sign.js";
import type { Job } from "./job.js";
import type { WebhookTarget } from "./types.js";
import type { WindowCodec } from "./window-store.js";

/** A webhook known by id only: what a persisting store gives back (it never keeps a secret). */
export type WebhookRef = Pick<WebhookTarget, "id" | "workspaceId">;
export const isTarget = (t: WebhookTarget | WebhookRef): t is WebhookTarget => "url" in t;

/**
 * A debounced delivery: the event's `data` as JSON text (delivery bodies are JSON of the event, so
 * the round trip is exact); its workspace is the target's (wantsEvent) and its name a shared string.
 */
export interface Pending {
  target: WebhookTarget | WebhookRef;
  name: ServiceEvent["event"];
  data: string;
}

export const unpack = ({ target, name, data }: Pending) => ({ workspaceId: target.workspaceId, event: name, data: JSON.parse(data) }) as ServiceEvent;

/** Events as a persisting store keeps them: the event's JSON (the format of the outbox's rows). */
export const eventCodec: WindowCodec<ServiceEvent> = {
  encode: (event) => ({ workspaceId: event.workspaceId, event: event.event, payload: JSON.stringify(event) }),
  decode: (item) => JSON.parse(item.payload) as ServiceEvent,
};

/** A debounced delivery as a persisting store keeps it: the webhook's id and the event, never the target's secret. */
export const pendingCodec: WindowCodec<Pending> = {
  encode: ({ target, name, data }) => ({
    workspaceId: target.workspaceId,
    event: name,
    webhookId: target.id,
    payload: `{"workspaceId":${JSON.stringify(target.workspaceId)},"event":${JSON.stringify(name)},"data":${data}}`,
  }),
  decode: (item) => ({
    target: { id: item.webhookId!, workspaceId: item.workspaceId },
    name: item.event,
    data: JSON.stringify((JSON.parse(item.payload) as ServiceEvent).data),
  }),
};

/**
 * The body builder of one event, shared by every webhook it goes to: the event's data is
 * serialized once (or not at all when the JSON is at hand, as a debounce window holds it) and each
 * attempt splices its own send time around it (deliveryBodyText).
 */
export function payloadOf(event: ServiceEvent, dataJson?: string): Job["payload"] {
  let data = dataJson;
  return (target, timestamp) => toDeliveryBody(target.format, event, timestamp, target.format === "service" ? (data ??= JSON.stringify(event.data)) : undefined);
}
