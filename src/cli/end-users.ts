/**
 * `svc end-users list|get|update|delete` (docs/identity.md): the accounts of a workspace's
 * Identity feature, not the dashboard members (`svc members`). Personal data: never logged. A user
 * is named by id or email.
 */
import type { Command } from "commander";
import { notFound } from "../core/errors.js";
import { pageOf } from "../core/lists.js";
import { deleteEndUser, getEndUser, listEndUsers, updateEndUser, type EndUser } from "../services/end-users.js";
import type { ServiceContext } from "../services/context.js";
import type { Workspace } from "../services/context.js";
import { parseBoolean, parseCount, parseJsonObject } from "./args.js";
import { requireWorkspace, withService } from "./context.js";
import { UsageError } from "./errors.js";
import { PASSWORD_STDIN_OPTION, passwordFromFlags } from "./password.js";

const WS = ["-w, --workspace <slug>", "workspace slug"] as const;
const line = (u: EndUser) => `${u.id}\t${u.active ? "active  " : "inactive"}\t${u.email}${u.email_verified ? "" : " (unverified)"}`;

/** The CLI names what HTTP answers with 404 `Identity is not enabled`, plus the way to turn it on. */
function requireIdentity(ws: Workspace): void {
  if (!ws.identity) throw notFound(`Identity is not enabled on workspace ${ws.slug}; turn it on with svc workspaces update ${ws.slug} --identity`, { identity: false });
}

/** The user with email `ref`, else id `ref`; 404 otherwise. */
async function findEndUser(ctx: ServiceContext, workspaceId: string, ref: string): Promise<EndUser> {
  if (ref.includes("@")) {
    const wanted = ref.trim().toLowerCase();
    for (let offset = 0; ; offset += 200) {
      const { rows } = await listEndUsers(ctx, workspaceId, { limit: 200, offset });
      const found = rows.find((u) => u.email === wanted);
      if (found) return found;
      if (rows.length < 200) break;
    }
  }
  return getEndUser(ctx, workspaceId, ref);
}

export function registerEndUsers(program: Command): void {
  const users = program.command("end-users").description("End users: the accounts of a workspace with Identity (not dashboard members)");
  users
    .command("list")
    .description("List end users, oldest first")
    .option(...WS)
    .option("--limit <n>", "page size (1-200)", "50")
    .option("--offset <n>", "users to skip", "0")
    .action(async (opts: { workspace?: string; limit: string; offset: string }, cmd: Command) => {
      const page = { limit: parseCount(opts.limit, "--limit"), offset: parseCount(opts.offset, "--offset") };
      if (page.limit < 1 || page.limit > 200) throw new UsageError("--limit takes 1 to 200");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        requireIdentity(ws);
        const { rows, total } = await listEndUsers(svc.context, ws.id, page);
        const list = pageOf(rows, total, page);
        out.result(list, () => [...list.data.map(line), `${list.data.length} of ${list.meta.total}`]);
      });
    });
  users
    .command("get <id-or-email>")
    .description("Show one end user (never the password)")
    .option(...WS)
    .action(async (ref: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        requireIdentity(ws);
        const user = await findEndUser(svc.context, ws.id, ref);
        out.result(user, () => [line(user), `attributes: ${JSON.stringify(user.attributes)}`]);
      });
    });
  users
    .command("update <id-or-email>")
    .description("Change an end user; --active false or a new password ends their sessions at once")
    .option(...WS)
    .option("--email <email>", "new email (unverified unless --email-verified true)")
    .option("--password <password>", "new password (8 characters or more)")
    .option(...PASSWORD_STDIN_OPTION)
    .option("--attributes <json>", "replace the attributes object, e.g. '{\"plan\": \"pro\"}'")
    .option("--active <bool>", "true or false")
    .option("--email-verified <bool>", "true or false")
    .action(async (ref: string, opts: { workspace?: string; email?: string; password?: string; passwordStdin?: boolean; attributes?: string; active?: string; emailVerified?: string }, cmd: Command) => {
      const body: Record<string, unknown> = {};
      if (opts.email !== undefined) body.email = opts.email;
      const password = await passwordFromFlags(opts, false);
      if (password !== undefined) body.password = password;
      if (opts.attributes !== undefined) body.attributes = parseJsonObject(opts.attributes, "--attributes");
      if (opts.active !== undefined) body.active = parseBoolean(opts.active, "--active");
      if (opts.emailVerified !== undefined) body.email_verified = parseBoolean(opts.emailVerified, "--email-verified");
      if (Object.keys(body).length === 0) throw new UsageError("Nothing to change: give --email, --password (or --password-stdin), --attributes, --active or --email-verified");
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        requireIdentity(ws);
        const user = await findEndUser(svc.context, ws.id, ref);
        const updated = await updateEndUser(svc.context, ws.id, user.id, body);
        out.result(updated, () => `Updated ${line(updated)}`);
      });
    });
  users
    .command("delete <id-or-email>")
    .description("Delete an end user and every session of theirs")
    .option(...WS)
    .action(async (ref: string, opts: { workspace?: string }, cmd: Command) => {
      await withService(cmd, async (svc, out) => {
        const ws = await requireWorkspace(svc, opts.workspace);
        requireIdentity(ws);
        const user = await findEndUser(svc.context, ws.id, ref);
        await deleteEndUser(svc.context, ws.id, user.id);
        out.result({ id: user.id, deleted: true }, () => `Deleted end user ${user.id}`);
      });
    });
}
