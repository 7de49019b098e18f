/**
 * How a delivery's outcome is reported: the DeliveryResult handed to a waiting caller, and the
 * fields of its log lines (DESIGN 5: webhook id, event, attempt, status, duration; never the
 * secret, never header values, not even the URL).
 */
import { performance } from "node:perf_hooks";
import type { AttemptOutcome } from "./deliver.js";
import type { Job } from "./job.js";
import type { AttemptRecord } from "./types.js";

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

/**
 * What the delivery log keeps of one sent attempt: the service's own request headers (signatures
 * included: they are derived from the secret and this body and reveal neither), custom header
 * NAMES only, the body, and the outcome. Never the secret, never a custom header value.
 */
export function toAttemptRecord(job: Job, outcome: AttemptOutcome): AttemptRecord {
  return {
    webhookId: job.target.id,
    workspaceId: job.target.workspaceId,
    deliveryId: job.deliveryId ?? "",
    event: job.event.event,
    format: job.target.format,
    attempt: job.attempts ?? 0,
    redelivery: job.redelivery === true,
    ok: outcome.ok,
    status: outcome.status,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    durationMs: Math.round(outcome.durationMs),
    requestHeaders: { ...(outcome.sentHeaders ?? {}) },
    customHeaderNames: Object.keys(job.target.headers).sort((a, b) => a.localeCompare(b)),
    body: job.body?.toString("utf8") ?? "",
    sentAt: job.sentAt ?? "",
  };
}
