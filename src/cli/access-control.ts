/** The access-control command groups: `svc members …` (also `svc users …`) and `svc keys …`. */
import type { Command } from "commander";
import { registerKeys } from "./keys.js";
import { registerMembers } from "./users.js";

export function registerAccessControl(program: Command): void {
  registerMembers(program);
  registerKeys(program);
}
