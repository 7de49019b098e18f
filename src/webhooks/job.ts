/**
 * One delivery as the queue carries it. Its own module so the queue and the reporting of outcomes
 * (report.ts) both read it without importing each other.
 */
import type { EventName } from "../core/events.js";
import type { AttemptOutcome } from "./deliver.js";
import type { DeliveryResult, WebhookTarget } from "./types.js";

export interface Job {
  target: WebhookTarget;
  /** What the delivery is about (logs, the subscription check of a re-read). */
  event: { workspaceId: string; event: EventName };
  /** The body of one attempt, for the target as it is then and the attempt's send time. */
  payload: (target: WebhookTarget, timestamp: string) => Buffer;
  /** Retry on failure (false: one attempt). */
  retries: boolean;
  /** Read the webhook again before each attempt (emitted deliveries; deliverNow sends what it is given). */
  reread?: boolean;
  /** A logged delivery sent again (recorded as such). */
  redelivery?: boolean;
  /** Called with the outcome; a caller waiting on it also keeps retry timers ref'd. */
  onDone?: (result: DeliveryResult) => void;
  /** `webhook-id`: one per delivery, the same on all its attempts. Set by the queue when absent. */
  deliveryId?: string;
  /** @internal */ host?: string;
  /** @internal */ attempts?: number;
  /** @internal */ startedAt?: number;
  /** @internal body of the attempt under way */ body?: Buffer;
  /** @internal send time of the attempt under way, ISO 8601 */ sentAt?: string;
  /** @internal outcome of the last failed attempt, kept while waiting to retry */ last?: AttemptOutcome;
}
