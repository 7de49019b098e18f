/**
 * `svc webhooks list|create|test|secret` (DESIGN §4.1): a workspace's webhooks, a test delivery
 * and the signing secret.
 */
import type { Command } from "commander";
import { requireWorkspace, withService } from "../context.js";
import { UsageError } from "../errors.js";
import { createWebhook, getWebhookSettings, listWebhooks, testWebhook, type WebhookRecord } from "../../services/webhooks.js";
import { EVENT_NAMES, WEBHOOK_FORMATS } from "../../core/events.js";
import { choiceOption } from "../args.js";
import { SIGNATURE_HEADER } from "../../core/signature.js";

/** One webhook on one line (also used by manage.ts). */
export const webhookLine = (w: WebhookRecord) =>
  `${w.id}  ${w.active ? "active  " : "inactive"}  ${w.url}  [${w.events.join(", ")}]${w.format === "service" ? "" : `  format=${w.format}`}${w.header_names.length ? `  headers: ${w.header_names.join(", ")}` : ""}`;

function parseHeaderFlags(values: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf("=");
    if (i <= 0) throw new UsageError(`--header takes name=value, got ${JSON.stringify(v.split("=")[0])}`);
    out[v.slice(0, i)] = v.slice(i + 1);
  }
  return out;
}

export function registerRecordCommands(wh: Command): void {
  wh.command("list")
    .description("List a workspace's webhooks (never secrets or header values)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = await listWebhooks(svc.context, ws.id);
        out.result(list, () => (list.length ? list.map(webhookLine) : "No webhooks"));
      });
    });

  wh.command("create")
    .description("Create a webhook; the secret is generated (see `svc webhooks secret`)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .requiredOption("--url <url>", "https:// URL of the receiver")
    .addOption(choiceOption("--event <name...>", "event names (content.created, …, form.submitted)", EVENT_NAMES).makeOptionMandatory())
    .addOption(choiceOption("--format <format>", "service | code_host_repository_dispatch", WEBHOOK_FORMATS, "service"))
    .option("--header <name=value...>", "custom header sent on every delivery (at most 10)")
    .option("--inactive", "create it switched off")
    .option("--log-deliveries", "keep the last 100 attempts (see `svc webhooks deliveries`)")
    .option("--standard-webhooks", "also send the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature")
    .action(async (opts: { workspace: string; url: string; event: string[]; format: string; header?: string[]; inactive?: boolean; logDeliveries?: boolean; standardWebhooks?: boolean }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const record = await createWebhook(
          svc.context,
          ws.id,
          {
            url: opts.url,
            events: opts.event,
            format: opts.format,
            headers: parseHeaderFlags(opts.header),
            active: !opts.inactive,
            log_deliveries: opts.logDeliveries === true,
            standard_webhooks: opts.standardWebhooks === true,
          },
          "svc webhooks create",
        );
        out.result(record, () => `Created webhook ${record.id}\n${webhookLine(record)}\nSecret: svc webhooks secret -w ${ws.slug} ${record.id}`);
      });
    });

  wh.command("test <id>")
    .description("Send one signed sample delivery through the real delivery path")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .addOption(choiceOption("--event <name>", "event to simulate (default: the webhook's first event)", EVENT_NAMES))
    .action(async (id: string, opts: { workspace: string; event?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const result = await testWebhook(svc.context, ws.id, id, opts.event);
        out.result(result, () => `${result.ok ? "✔" : "✖"} ${result.status ?? "no response"} in ${result.duration_ms} ms${result.error ? ` (${result.error})` : ""}\n  ${SIGNATURE_HEADER}: ${result.signature}`);
        if (!result.ok) process.exitCode = 1;
      });
    });

  wh.command("secret <id>")
    .description("Reveal a webhook's signing secret (local owner)")
    .requiredOption("-w, --workspace <slug>", "workspace")
    .action(async (id: string, opts: { workspace: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const { secret } = await getWebhookSettings(svc.context, ws.id, id);
        out.result({ id, secret }, () => secret);
      });
    });
}
