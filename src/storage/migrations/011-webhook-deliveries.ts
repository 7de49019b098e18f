/**
 * Opt-in webhook features beyond spec 6.6: per-webhook flags for the delivery log and the
 * Standard Webhooks headers, the previous secret of a rotation (sealed like the current one) with
 * the end of its window, and the delivery log itself (at most 100 rows per webhook, pruned on
 * insert, removed with the webhook). `seq` orders rows written in the same millisecond.
 */
import type { Dialect } from "../sql.js";

export const webhookDeliveries = (dialect: Dialect) => `
ALTER TABLE webhooks ADD COLUMN log_deliveries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN standard_webhooks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN previous_secret_sealed TEXT;
ALTER TABLE webhooks ADD COLUMN previous_secret_until TEXT;
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  seq ${dialect === "postgresql" ? "BIGINT" : "INTEGER"} NOT NULL,
  delivery_id TEXT NOT NULL,
  event TEXT NOT NULL,
  format TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  redelivery INTEGER NOT NULL DEFAULT 0,
  ok INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL,
  request_headers TEXT NOT NULL,
  custom_header_names TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, seq);
`;
