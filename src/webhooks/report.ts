/**
 * How a delivery's outcome is reported: the DeliveryResult handed to a waiting caller, and the
 * fields of its log lines (DESIGN 5: webhook id, event, attempt, status, duration; never the
 * secret, never header values, not even the URL).
 */
import { performance } from "node:perf_hooks";
import type { AttemptOutcome } from "./deliver.js";
import type { Job } from "./job.js";

/** Resolves the caller waiting on `job` (deliverNow) with its DeliveryResult. */
export function finish(job: Job, outcome: AttemptOutcome): void {
  job.onDone?.({
    ok: outcome.ok,
    status: outcome.status,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    attempts: job.attempts ?? 0,
    durationMs: job.startedAt === undefined ? 0 : Math.round(performance.now() - job.startedAt),
    signature: outcome.signature,
  });
}

/** The fields of a log line: ids, event, attempt, status or error, duration. Never secret or header values. */
export function logFields(job: Job, outcome: AttemptOutcome | undefined): Record<string, unknown> {
  return {
    webhook: job.target.id,
    workspace: job.target.workspaceId,
    event: job.event.event,
    attempts: job.attempts ?? 0,
    status: outcome?.status ?? null,
    ...(outcome?.error === undefined ? {} : { error: outcome.error }),
    ...(outcome === undefined ? {} : { durationMs: Math.round(outcome.durationMs) }),
  };
}
