/** The access-control command groups: `svc members …` (also `svc users …`) and `svc keys …`. */
import type { Command } from "commander";
import { registerKeys } from "./keys.js";
import { registerUsers } from "./users.js";

export function registerAccessControl(program: Command): void {
  registerUsers(program);
  registerKeys(program);
}
