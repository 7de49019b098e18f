/** `svc users create` (DESIGN §4.1): a dashboard user, owner or member. */
import type { Command } from "commander";
import { repo } from "../storage/context.js";
import { createDashboardUserRepo } from "../storage/dashboard-users.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";

export function registerUsers(program: Command): void {
  const users = program.command("users").description("Dashboard users (owners and members)");
  users
    .command("create")
    .description("Create a dashboard user")
    .option("-w, --workspace <slug>", "workspace slug")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--password <password>", "sign-in password (8 characters or more)")
    .requiredOption("--role <role>", "owner or member")
    .option("--grant <grant...>", "a member's grants, e.g. entries:read (owners bypass grants)")
    .action(async (opts: { workspace?: string; email: string; password: string; role: string; grant?: string[] }, cmd: Command) => {
      if (opts.role !== "owner" && opts.role !== "member") throw new UsageError("--role must be owner or member");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const user = await repo(svc.context, createDashboardUserRepo).create(ws.id, {
          email: opts.email,
          password: opts.password,
          role: opts.role,
          grants: opts.grant ?? [],
        });
        out.result({ id: user.id, email: user.email, role: user.role, grants: user.grants }, () =>
          `Created ${user.role} ${user.email} in ${ws.slug}${user.grants.length ? ` with ${user.grants.join(", ")}` : ""}`,
        );
      });
    });
}
