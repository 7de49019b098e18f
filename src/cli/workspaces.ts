/** `svc workspaces create|list|update` (DESIGN §4.1). */
import type { Command } from "commander";
import { mailFlags, requireWorkspace, withService } from "./context.js";
import type { Workspace } from "../services/context.js";
import { assertSelfSignupCanStart, updateWorkspace } from "../services/workspaces.js";
import { UsageError } from "./errors.js";

const view = (w: Workspace) => ({
  id: w.id,
  slug: w.slug,
  hosts: w.hosts,
  dashboard_host: w.dashboard_host ?? null,
  identity: w.identity,
  self_signup: w.selfSignup,
});

interface MailFlags {
  smtpUrl?: string;
  devMail?: boolean;
}

interface CreateFlags extends MailFlags {
  host: string[];
  identity: boolean;
  selfSignup: boolean;
  name?: string;
  dashboardHost?: string;
}

/** Self sign-up needs the mail transport `svc serve` has; these say which (mail.ts). */
const SMTP_URL = ["--smtp-url <url>", "the SMTP server svc serve sends mail through [SVC_SMTP_URL] (self sign-up needs a mail transport)"] as const;
const DEV_MAIL = ["--dev-mail", "svc serve prints mail instead, in development [SVC_DEV_MAIL=1] (self sign-up needs a mail transport)"] as const;

export function registerWorkspaces(program: Command): void {
  const ws = program.command("workspaces").description("Create, list and update workspaces (each addressed by its hostnames)");
  ws.command("create <slug>")
    .description("Create a workspace")
    .requiredOption("--host <host...>", "hostname(s) that address the workspace")
    .option("--dashboard-host <host>", "hostname serving the dashboard at /_/ (default: admin.<first host>)")
    .option("--identity", "enable Identity (end-user accounts)", false)
    .option("--self-signup", "let visitors create their own accounts (off by default; with --identity)", false)
    .option("--name <name>", "display name (default: the slug)")
    .option(...SMTP_URL)
    .option(...DEV_MAIL)
    .action(async (slug: string, opts: CreateFlags, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        assertSelfSignupCanStart(svc.context, false, opts.selfSignup);
        const created = await svc.context.workspaces.create({
          slug,
          hosts: opts.host,
          identity: opts.identity,
          selfSignup: opts.selfSignup,
          name: opts.name,
          dashboardHost: opts.dashboardHost,
        });
        const mode = created.identity ? ` (Identity on, self sign-up ${created.selfSignup ? "on" : "off"})` : "";
        const dashboard = created.dashboard_host ? `; dashboard on ${created.dashboard_host}/_/` : "";
        out.result(view(created), () => `Created workspace ${created.slug} on ${created.hosts.join(", ")}${dashboard}${mode}`);
      }, mailFlags(opts));
    });
  ws.command("update <slug>")
    .description("Change a workspace's settings: hosts, dashboard host, Identity; effective on the server's next request")
    .option("--dashboard-host <host>", "hostname serving the dashboard at /_/ (must not address any workspace yet)")
    .option("--host <host...>", "replace the hostnames that address the workspace (the dashboard host stays)")
    .option("--identity", "enable Identity (end-user accounts)")
    .option("--no-identity", "disable Identity: account sessions are refused at once (accounts are kept)")
    .option("--self-signup", "let visitors create their own accounts")
    .option("--no-self-signup", "stop visitors from creating accounts")
    .option(...SMTP_URL)
    .option(...DEV_MAIL)
    .action(async (slug: string, opts: MailFlags & { dashboardHost?: string; host?: string[]; identity?: boolean; selfSignup?: boolean }, cmd: Command) => {
      const change = { hosts: opts.host, dashboardHost: opts.dashboardHost, identity: opts.identity, selfSignup: opts.selfSignup };
      if (Object.values(change).every((v) => v === undefined)) {
        throw new UsageError("Nothing to change: give --host, --dashboard-host, --identity/--no-identity or --self-signup/--no-self-signup");
      }
      await withService(cmd, async (svc, out) => {
        const updated = await updateWorkspace(svc.context, await requireWorkspace(svc, slug), change);
        const mode = updated.identity ? `Identity on, self sign-up ${updated.selfSignup ? "on" : "off"}` : "Identity off";
        out.result(view(updated), () => `Workspace ${slug}: dashboard on ${updated.dashboard_host ?? "(none)"}/_/; hosts ${updated.hosts.join(", ")}; ${mode}`);
      }, mailFlags(opts));
    });
  ws.command("list")
    .description("List workspaces")
    .action(async (_opts: unknown, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const all = (await svc.context.workspaces.list()).map(view);
        out.result(all, () =>
          all.length
            ? all.map((w) => `${w.slug}\t${w.hosts.join(", ")}\tdashboard ${w.dashboard_host ?? "(none)"}${w.identity ? "\tidentity" : ""}`)
            : "No workspaces",
        );
      });
    });
}
