/**
 * `svc webhooks update|delete|settings`: changes to a webhook after it was created.
 * `settings` takes one explicit flag per setting, from the SETTINGS table below: a new setting is
 * one row there (its flag, its key in the settings body, how its value is read).
 */
import type { Command } from "commander";
import { deleteWebhook, getWebhookSettings, updateWebhook, updateWebhookSettings, type WebhookSettings } from "../../services/webhooks.js";
import { choiceOption, parseBoolean, parseCount, splitPair } from "../args.js";
import { EVENT_NAMES, WEBHOOK_FORMATS } from "../../core/events.js";
import { requireWorkspace, withService } from "../context.js";
import { UsageError } from "../errors.js";
import { webhookLine } from "./records.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;

interface SettingFlag {
  /** commander flag, e.g. `--debounce-ms <ms>` */
  flag: string;
  /** key in the settings body (and in the `settings` output) */
  key: string;
  help: string;
  parse: (value: string, flag: string) => unknown;
}

const SETTINGS: SettingFlag[] = [
  { flag: "--active <bool>", key: "active", help: "deliver (true) or pause (false)", parse: parseBoolean },
  { flag: "--debounce-ms <ms>", key: "debounce_ms", help: "wait this long for further changes before delivering (0 to 3600000)", parse: parseCount },
  { flag: "--debounce-scope <scope>", key: "debounce_scope", help: "entry (per entry) or webhook (all changes together)", parse: (v) => v },
  { flag: "--log-deliveries <bool>", key: "log_deliveries", help: "keep the last 100 attempts (svc webhooks deliveries)", parse: parseBoolean },
  { flag: "--standard-webhooks <bool>", key: "standard_webhooks", help: "also send webhook-id, webhook-timestamp and webhook-signature", parse: parseBoolean },
];

/** The option name commander derives from a flag: `--debounce-ms <ms>` → debounceMs. */
const optionName = (flag: string) => flag.split(" ")[0]!.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Settings without the secret: `svc webhooks secret` is the one command that reveals it. */
const settingsView = (id: string, s: WebhookSettings) => {
  const { secret: _secret, ...rest } = s;
  return { id, ...rest };
};

/** Adds the commands to the `webhooks` group that webhooks.ts created. */
export function registerWebhookChanges(wh: Command): void {
  wh.command("update <id>")
    .description("Change a webhook: URL, events, format, custom headers (kept unless named), active")
    .option(...WS)
    .option("--url <url>", "https:// URL of the receiver")
    .addOption(choiceOption("--event <name...>", "replace the events it fires on", EVENT_NAMES))
    .addOption(choiceOption("--format <format>", "service | code_host_repository_dispatch", WEBHOOK_FORMATS))
    .option("--header <name=value...>", "set or replace custom headers (others are kept)")
    .option("--clear-headers", "remove every custom header")
    .option("--active <bool>", "true or false")
    .action(async (id: string, opts: { workspace?: string; url?: string; event?: string[]; format?: string; header?: string[]; clearHeaders?: boolean; active?: string }, cmd: Command) => {
      if (opts.header && opts.clearHeaders) throw new UsageError("Give --header or --clear-headers, not both");
      const body: Record<string, unknown> = {};
      if (opts.url !== undefined) body.url = opts.url;
      if (opts.event !== undefined) body.events = opts.event;
      if (opts.format !== undefined) body.format = opts.format;
      if (opts.header) body.headers = Object.fromEntries(opts.header.map((h) => splitPair(h, "--header")));
      if (opts.clearHeaders) body.headers = null;
      if (opts.active !== undefined) body.active = parseBoolean(opts.active, "--active");
      if (Object.keys(body).length === 0) throw new UsageError("Nothing to change: give --url, --event, --format, --header, --clear-headers or --active");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const record = await updateWebhook(svc.context, ws.id, id, body, "svc webhooks update");
        out.result(record, () => `Updated webhook ${record.id}\n${webhookLine(record)}`);
      });
    });

  wh.command("delete <id>")
    .description("Delete a webhook; nothing more is delivered to it")
    .option(...WS)
    .action(async (id: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        await deleteWebhook(svc.context, ws.id, id);
        out.result({ id, deleted: true }, () => `Deleted webhook ${id}`);
      });
    });

  const settings = wh
    .command("settings <id>")
    .description(`Show a webhook's delivery settings, or change them with ${SETTINGS.map((s) => s.flag.split(" ")[0]).join(", ")} (the secret: svc webhooks secret)`)
    .option(...WS);
  for (const s of SETTINGS) settings.option(s.flag, s.help);
  settings.action(async (id: string, opts: Record<string, string | undefined> & { workspace?: string }, cmd: Command) => {
    const body: Record<string, unknown> = {};
    for (const s of SETTINGS) {
      const value = opts[optionName(s.flag)];
      if (value !== undefined) body[s.key] = s.parse(value, s.flag.split(" ")[0]!);
    }
    await withService(cmd, async (svc, out) => {
      const ws = await requireWorkspace(svc, opts.workspace);
      const changed = Object.keys(body).length > 0;
      const result = settingsView(id, changed ? await updateWebhookSettings(svc.context, ws.id, id, body) : await getWebhookSettings(svc.context, ws.id, id));
      out.result(result, () => [
        `${changed ? "Updated settings of" : "Settings of"} webhook ${id}`,
        ...Object.entries(result)
          .filter(([k]) => k !== "id")
          .map(([k, v]) => `  ${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`),
      ]);
    });
  });
}
