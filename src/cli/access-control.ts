/** The access-control command groups: `svc members …` (also `svc users …`), `svc keys …` and `svc end-users …`. */
import type { Command } from "commander";
import { registerKeys } from "./keys.js";
import { registerMembers } from "./users.js";
import { registerMemberCommands } from "./members.js";
import { registerEndUsers } from "./end-users.js";

export function registerAccessControl(program: Command): void {
  registerMemberCommands(registerMembers(program));
  registerKeys(program);
  registerEndUsers(program);
}
