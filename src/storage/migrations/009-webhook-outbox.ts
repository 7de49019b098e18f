/**
 * Durable webhook delivery (opt-in, docs/webhooks.md "Durable delivery"):
 * - webhook_outbox: what is still to be done for events of committed writes. `kind` is `event`
 *   (match the workspace's webhooks), `window` (a coalescing or debounce window: `window_key` is
 *   unique while it is open, `version` counts its touches, `webhook_id` is set for debounce
 *   windows) or `delivery` (one webhook, one event). A dispatcher claims a due row by setting
 *   `claimed_by` and a `lease_until`; rows of an instance that died become claimable again when
 *   the lease ends. Finished deliveries keep `state` done or dropped until pruned.
 * - webhook_dispatchers: the instances delivering from the outbox, each with a heartbeat expiry;
 *   a CLI process writes events to the outbox instead of delivering them while one is alive.
 * Payloads hold the event only (entry or submission ids and values), never a webhook secret.
 */
export const webhookOutbox = () => `
CREATE TABLE webhook_outbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  webhook_id TEXT,
  window_key TEXT UNIQUE,
  version INTEGER NOT NULL DEFAULT 0,
  due_at BIGINT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  claimed_by TEXT,
  lease_until BIGINT NOT NULL DEFAULT 0,
  finished_at BIGINT
);
CREATE INDEX webhook_outbox_due ON webhook_outbox(state, due_at);
CREATE TABLE webhook_dispatchers (
  instance_id TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
`;
