/**
 * `svc members`: the people who run a workspace in the dashboard (owners and members) — create.ts
 * and manage.ts (list, update, remove). End users, the workspace's Identity accounts, are
 * `svc end-users` (end-users.ts).
 *
 * `svc users create` is the name DESIGN §4.1 fixed for scripts, kept as an alias of
 * `svc members create`: the same flags and output. It is the only place where "users" means
 * members; `svc users` has no other command.
 */
import type { Command } from "commander";
import { addCreateMember } from "./create.js";
import { registerMemberCommands } from "./manage.js";

export function registerMembers(program: Command): void {
  const members = program.command("members").description("Dashboard members and owners (the people who run the workspace)");
  addCreateMember(members);
  registerMemberCommands(members);
  addCreateMember(program.command("users").description("Alias of `svc members create`, kept for scripts: `svc users create` creates a dashboard member or owner (end users are `svc end-users`)"));
}
