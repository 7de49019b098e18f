/**
 * `svc members create` (and its alias `svc users create`): a dashboard member or owner.
 */
import type { Command } from "commander";
import { createMember } from "../../services/members.js";
import { requireWorkspace, withService } from "../context.js";
import { UsageError } from "../errors.js";
import { PASSWORD_STDIN_OPTION, passwordFromFlags } from "../password.js";

export function addCreateMember(group: Command): void {
  group
    .command("create")
    .description("Create a dashboard member or owner")
    .option("-w, --workspace <slug>", "workspace slug")
    .requiredOption("--email <email>", "sign-in email")
    .option("--password <password>", "sign-in password (8 characters or more)")
    .option(...PASSWORD_STDIN_OPTION)
    .requiredOption("--role <role>", "owner or member")
    .option("--grant <grant...>", "a member's grants, e.g. entries:read (owners bypass grants)")
    .action(async (opts: { workspace?: string; email: string; password?: string; passwordStdin?: boolean; role: string; grant?: string[] }, cmd: Command) => {
      if (opts.role !== "owner" && opts.role !== "member") throw new UsageError("--role must be owner or member");
      const password = await passwordFromFlags(opts, true);
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const member = await createMember(svc.context, ws.id, {
          email: opts.email,
          password,
          role: opts.role,
          grants: opts.grant ?? [],
        });
        out.result({ id: member.id, email: member.email, role: member.role, grants: member.grants }, () =>
          `Created ${member.role} ${member.email} in ${ws.slug}${member.grants.length ? ` with ${member.grants.join(", ")}` : ""}`,
        );
      });
    });
}
