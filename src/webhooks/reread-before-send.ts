/**
 * Read the webhook again before each attempt (the first step of the deliver stage). A delivery can
 * wait up to an hour in a debounce window and seconds in a retry wait; a webhook deleted, deactivated or changed meanwhile must not be served
 * with what was read when the event happened. So each attempt of an emitted delivery reads the
 * webhook again: gone, inactive or no longer subscribed → dropped; otherwise the current URL,
 * headers, secret and format are used.
 */
import type { EventName } from "../core/events.js";
import type { Attempt, AttemptOutcome } from "./deliver.js";
import { errorText } from "./error-text.js";
import { skipReason } from "./skip-reason.js";
import type { WebhookSource, WebhookTarget } from "./types.js";

/** An outcome that is not an attempt: the webhook no longer wants the delivery. Never retried. */
export interface SkippedOutcome extends AttemptOutcome {
  skipped: true;
}

/**
 * Reads the webhook of `held` again through `source.current`, then starts the attempt with the
 * current target, or ends with a skipped outcome. A failed read is a failed attempt (retried like
 * any other), never a send with the stale target.
 */
export function startRereadAttempt(
  source: Required<Pick<WebhookSource, "current">>,
  held: WebhookTarget,
  event: EventName,
  start: (target: WebhookTarget) => Attempt,
): Attempt {
  let inner: Attempt | undefined;
  let aborted: string | undefined;
  const failed = (error: string): AttemptOutcome => ({ ok: false, status: null, error, signature: "", durationMs: 0 });
  // An abort before the attempt started ends it at once: close() must not wait on a stuck lookup.
  let abortRead: (outcome: AttemptOutcome) => void = () => undefined;
  const abortedRead = new Promise<AttemptOutcome>((resolve) => (abortRead = resolve));
  const reread = Promise.resolve()
    .then(() => source.current(held.workspaceId, held.id))
    .then(
    (current): AttemptOutcome | Promise<AttemptOutcome> => {
      if (aborted !== undefined) return failed(aborted);
      const skip = skipReason(current, held, event);
      if (skip !== undefined) {
        const skipped: SkippedOutcome = { ...failed(skip), skipped: true };
        return skipped;
      }
      inner = start(current!);
      return inner.done;
    },
    (err: unknown) => failed(`webhook lookup failed: ${errorText(err)}`),
  );
  return {
    done: Promise.race([reread, abortedRead]),
    abort(reason) {
      aborted = reason;
      if (inner) inner.abort(reason);
      else abortRead(failed(reason));
    },
  };
}

export const isSkipped = (outcome: AttemptOutcome): outcome is SkippedOutcome => (outcome as SkippedOutcome).skipped === true;
