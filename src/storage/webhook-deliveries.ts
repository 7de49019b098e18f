/**
 * The opt-in delivery log (beyond spec 6.6): one row per sent attempt of a webhook with
 * log_deliveries on, at most {@link MAX_LOGGED_DELIVERIES} per webhook (older rows pruned on
 * insert), deleted with the webhook. Rows hold what the dispatcher's AttemptRecord holds: no
 * secret, no custom header value.
 */
import type { EventName, WebhookFormat } from "../core/events.js";
import { notFound } from "../core/errors.js";
import type { AttemptRecord } from "../core/webhook-target.js";
import type { StorageContext } from "./context.js";
import { newRowId } from "./ids.js";

/** Retention bound of the log, per webhook. */
export const MAX_LOGGED_DELIVERIES = 100;

/** One logged attempt as the API returns it. */
export interface DeliveryLogRecord {
  /** This attempt's id (the path segment of redeliver). */
  id: string;
  /** `webhook-id` of the delivery, shared by its attempts. */
  delivery_id: string;
  event: EventName;
  format: WebhookFormat;
  attempt: number;
  redelivery: boolean;
  ok: boolean;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  request_headers: Record<string, string>;
  custom_header_names: string[];
  body: string;
  sent_at: string;
}

interface Row {
  id: string;
  webhook_id: string;
  workspace_id: string;
  seq: number | string;
  delivery_id: string;
  event: string;
  format: string;
  attempt: number;
  redelivery: number;
  ok: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
  request_headers: string;
  custom_header_names: string;
  body: string;
  sent_at: string;
}

const toRecord = (r: Row): DeliveryLogRecord => ({
  id: r.id,
  delivery_id: r.delivery_id,
  event: r.event as EventName,
  format: r.format as WebhookFormat,
  attempt: Number(r.attempt),
  redelivery: Boolean(Number(r.redelivery)),
  ok: Boolean(Number(r.ok)),
  response_status: r.status === null ? null : Number(r.status),
  error: r.error,
  duration_ms: Number(r.duration_ms),
  request_headers: JSON.parse(r.request_headers) as Record<string, string>,
  custom_header_names: JSON.parse(r.custom_header_names) as string[],
  body: r.body,
  sent_at: r.sent_at,
});

// Orders rows written within the same millisecond; stays below 2^53.
let counter = 0;
const nextSeq = () => Date.now() * 1000 + (counter = (counter + 1) % 1000);

export function createDeliveryLogRepo(ctx: StorageContext) {
  const { sql } = ctx;
  return {
    /** Records one attempt and prunes the webhook's log to the newest 100; a deleted webhook records nothing. */
    async record(a: AttemptRecord): Promise<void> {
      // Taken now, in the order attempts finish, not when the transaction gets to run.
      const seq = nextSeq();
      await sql.transaction(async (tx) => {
        // Concurrent attempts of one webhook are pruned one after the other (SQLite serializes
        // write transactions; on PostgreSQL the webhook row lock does), so the bound holds exactly.
        if (tx.dialect === "postgresql") await tx.get("SELECT id FROM webhooks WHERE id = ? FOR UPDATE", [a.webhookId]);
        await tx.run(
          `INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, seq, delivery_id, event, format, attempt, redelivery, ok, status,
            error, duration_ms, request_headers, custom_header_names, body, sent_at)
           SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND workspace_id = ?)`,
          [
            newRowId(),
            a.webhookId,
            a.workspaceId,
            seq,
            a.deliveryId,
            a.event,
            a.format,
            a.attempt,
            a.redelivery ? 1 : 0,
            a.ok ? 1 : 0,
            a.status,
            a.error ?? null,
            a.durationMs,
            JSON.stringify(a.requestHeaders),
            JSON.stringify(a.customHeaderNames),
            a.body,
            a.sentAt,
            a.webhookId,
            a.workspaceId,
          ],
        );
        await tx.run(
          `DELETE FROM webhook_deliveries WHERE webhook_id = ? AND seq < (
             SELECT seq FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ${MAX_LOGGED_DELIVERIES - 1})`,
          [a.webhookId, a.webhookId],
        );
      });
    },

    /** The webhook's logged attempts, newest first. */
    async list(workspaceId: string, webhookId: string): Promise<DeliveryLogRecord[]> {
      const rows = await sql.all<Row>(
        `SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND workspace_id = ? ORDER BY seq DESC LIMIT ${MAX_LOGGED_DELIVERIES}`,
        [webhookId, workspaceId],
      );
      return rows.map(toRecord);
    },

    /** One logged attempt by its id, or the latest attempt of a delivery by its `webhook-id`. */
    async get(workspaceId: string, webhookId: string, id: string): Promise<DeliveryLogRecord> {
      const r = await sql.get<Row>(
        "SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND workspace_id = ? AND (id = ? OR delivery_id = ?) ORDER BY seq DESC LIMIT 1",
        [webhookId, workspaceId, id, id],
      );
      if (!r) throw notFound("Delivery not found in this webhook's log");
      return toRecord(r);
    },
  };
}

export type DeliveryLogRepo = ReturnType<typeof createDeliveryLogRepo>;
