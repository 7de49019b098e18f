/**
 * One delivery as the queue carries it. Its own module so the queue and the reporting of outcomes
 * (report.ts) both read it without importing each other.
 */
import type { ServiceEvent } from "../core/events.js";
import type { AttemptOutcome } from "./deliver.js";
import type { DeliveryResult, WebhookTarget } from "./types.js";

export interface Job {
  target: WebhookTarget;
  event: ServiceEvent;
  /** Retry on failure (false: one attempt). */
  retries: boolean;
  /** Read the webhook again before each attempt (emitted deliveries; deliverNow sends what it is given). */
  reread?: boolean;
  /** Called with the outcome; a caller waiting on it also keeps retry timers ref'd. */
  onDone?: (result: DeliveryResult) => void;
  /** @internal */ host?: string;
  /** @internal */ attempts?: number;
  /** @internal */ startedAt?: number;
  /** @internal outcome of the last failed attempt, kept while waiting to retry */ last?: AttemptOutcome;
}
