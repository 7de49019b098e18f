/**
 * `svc members list|update|remove`: the dashboard members and owners of a workspace. A member is
 * named by id or sign-in email. Changes reach the person at their next token refresh; removal ends
 * their sessions at once; the last owner stays.
 */
import type { Command } from "commander";
import { listOf } from "../../core/lists.js";
import { getMember, listMembers, removeMember, updateMember, type Member } from "../../services/members.js";
import type { ServiceContext } from "../../services/context.js";
import { requireWorkspace, withService } from "../context.js";
import { UsageError } from "../errors.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;
const view = (m: Member) => ({ id: m.id, email: m.email, role: m.role, grants: m.grants, created_at: m.created_at, updated_at: m.updated_at });
const line = (m: Member) => `${m.id}\t${m.role}\t${m.email}${m.role === "member" ? `\t${m.grants.join(", ") || "(no grants)"}` : ""}`;

/** The member whose email is `ref` (case-insensitive), else the one with id `ref`; 404 otherwise. */
async function findMember(ctx: ServiceContext, workspaceId: string, ref: string): Promise<Member> {
  if (ref.includes("@")) {
    const found = (await listMembers(ctx, workspaceId)).find((m) => m.email.toLowerCase() === ref.trim().toLowerCase());
    if (found) return found;
  }
  return getMember(ctx, workspaceId, ref);
}

export function registerMemberCommands(members: Command): void {
  members
    .command("list")
    .description("List members and owners with role and grants")
    .option(...WS)
    .action(async (opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const list = listOf((await listMembers(svc.context, ws.id)).map(view));
        out.result(list, () => (list.data.length ? list.data.map(line) : "No members"));
      });
    });
  members
    .command("update <id-or-email>")
    .description("Change a member's role and/or grants (--grant replaces them all; --no-grants clears them); effective at their next refresh")
    .option(...WS)
    .option("--role <role>", "owner or member (the last owner cannot be demoted)")
    .option("--grant <grant...>", "the member's grants, e.g. entries:read entries:write")
    .option("--no-grants", "take every grant away")
    .action(async (ref: string, opts: { workspace?: string; role?: string; grant?: string[]; grants?: boolean }, cmd: Command) => {
      const grants = opts.grants === false ? [] : opts.grant;
      if (opts.grants === false && opts.grant) throw new UsageError("Give --grant or --no-grants, not both");
      if (opts.role === undefined && grants === undefined) throw new UsageError("Nothing to change: give --role, --grant or --no-grants");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const member = await findMember(svc.context, ws.id, ref);
        const updated = view(await updateMember(svc.context, ws.id, member.id, { role: opts.role, grants }));
        out.result(updated, () => `Updated ${line(updated)}`);
      });
    });
  members
    .command("remove <id-or-email>")
    .description("Remove a member or owner and end their sessions at once (never the last owner)")
    .option(...WS)
    .action(async (ref: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        const member = await findMember(svc.context, ws.id, ref);
        const result = await removeMember(svc.context, ws.id, member.id);
        out.result(result, () => `Removed ${member.role} ${member.email} from ${ws.slug}`);
      });
    });
}
