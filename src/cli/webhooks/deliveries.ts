/**
 * `svc webhooks deliveries|redeliver|rotate-secret`: the opt-in delivery log, redelivery and secret
 * rotation (beyond spec 6.6), through services/webhook-deliveries.ts like the HTTP routes.
 */
import type { Command } from "commander";
import { requireWorkspace, withService } from "../context.js";
import { UsageError } from "../errors.js";
import { listDeliveries, redeliver, rotateSecret, DEFAULT_ROTATION_WINDOW_SECONDS } from "../../services/webhook-deliveries.js";
import type { DeliveryLogRecord } from "../../services/webhook-deliveries.js";

const row = (d: DeliveryLogRecord) =>
  `${d.id}  ${d.sent_at}  ${d.ok ? "✔" : "✖"} ${d.response_status ?? "—"}  ${d.event}  attempt ${d.attempt}${d.redelivery ? " (redelivery)" : ""}  ${d.duration_ms} ms  ${d.delivery_id}${d.error && !d.ok ? `  ${d.error}` : ""}`;

export function registerDeliveryCommands(wh: Command): void {
  wh.command("deliveries <id>")
    .description("Recent deliveries of a webhook with log_deliveries on: the last 100 attempts, newest first")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (id: string, opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = await listDeliveries(svc.context, ws.id, id);
        out.result({ data: list, meta: { total: list.length } }, () => (list.length ? list.map(row) : "No deliveries logged (is log_deliveries on?)"));
      });
    });

  wh.command("redeliver <id> <delivery>")
    .description("Send a logged delivery again: same body, new timestamp, current secret; retried and logged; waits for the outcome")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (id: string, delivery: string, opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const sent = await redeliver(svc.context, ws.id, id, delivery);
        const result = await sent.done;
        const value = {
          delivery_id: sent.delivery_id,
          redelivery_of: sent.redelivery_of,
          ok: result.ok,
          status: result.status,
          attempts: result.attempts,
          ...(result.error ? { error: result.error } : {}),
        };
        out.result(value, () => `${result.ok ? "✔" : "✖"} ${result.status ?? "no response"} after ${result.attempts} attempt(s)${result.error ? ` (${result.error})` : ""}\n  webhook-id: ${sent.delivery_id}`);
        if (!result.ok) process.exitCode = 1;
      });
    });

  wh.command("rotate-secret <id>")
    .description("Generate a new secret (printed once); the old one still signs webhook-signature during the window")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .option("--window <seconds>", "seconds the old secret keeps signing webhook-signature (0 to 2592000)", String(DEFAULT_ROTATION_WINDOW_SECONDS))
    .action(async (id: string, opts: { workspace: string; window: string }, cmd: Command) => {
      if (!/^\d+$/.test(opts.window)) throw new UsageError(`--window takes whole seconds, got ${JSON.stringify(opts.window)}`);
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const rotated = await rotateSecret(svc.context, ws.id, id, Number(opts.window));
        out.result({ id, ...rotated }, () =>
          [rotated.secret, rotated.previous_secret_until ? `The old secret signs webhook-signature until ${rotated.previous_secret_until}.` : "The old secret no longer signs."].join("\n"),
        );
      });
    });
}
