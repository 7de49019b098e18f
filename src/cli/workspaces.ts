/** `svc workspaces create|list` (DESIGN §4.1). */
import type { Command } from "commander";
import { withService } from "./context.js";
import type { Workspace } from "../storage/workspaces.js";

const view = (w: Workspace) => ({ id: w.id, slug: w.slug, hosts: w.hosts, identity: w.identity, self_signup: w.selfSignup });

export function registerWorkspaces(program: Command): void {
  const ws = program.command("workspaces").description("Create and list workspaces (each addressed by its hostnames)");
  ws.command("create <slug>")
    .description("Create a workspace")
    .requiredOption("--host <host...>", "hostname(s) that address the workspace")
    .option("--identity", "enable Identity (end-user accounts)", false)
    .option("--self-signup", "let visitors create their own accounts (off by default; with --identity)", false)
    .option("--name <name>", "display name (default: the slug)")
    .action(async (slug: string, opts: { host: string[]; identity: boolean; selfSignup: boolean; name?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const created = await svc.context.workspaces.create({ slug, hosts: opts.host, identity: opts.identity, selfSignup: opts.selfSignup, name: opts.name });
        const mode = created.identity ? ` (Identity on, self sign-up ${created.selfSignup ? "on" : "off"})` : "";
        out.result(view(created), () => `Created workspace ${created.slug} on ${created.hosts.join(", ")}${mode}`);
      });
    });
  ws.command("list")
    .description("List workspaces")
    .action(async (_opts: unknown, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const all = (await svc.context.workspaces.list()).map(view);
        out.result(all, () => (all.length ? all.map((w) => `${w.slug}\t${w.hosts.join(", ")}${w.identity ? "\tidentity" : ""}`) : "No workspaces"));
      });
    });
}
