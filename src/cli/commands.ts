/**
 * Command groups beyond serve/init/workspaces, in the order of `svc --help`; each group is one file
 * or one folder (webhooks/, members/).
 */
import type { Command } from "commander";
import { registerWebhooks } from "./webhooks/index.js";
import { registerSite } from "./site.js";
import { registerMembers } from "./members/index.js";
import { registerKeys } from "./keys.js";
import { registerEndUsers } from "./end-users.js";
import { registerContent } from "./content.js";
import { registerForms } from "./forms.js";
import { registerRules } from "./rules.js";
import { registerMedia } from "./media.js";

export function registerCommands(program: Command): void {
  registerWebhooks(program);
  registerSite(program);
  registerMembers(program);
  registerKeys(program);
  registerEndUsers(program);
  registerContent(program);
  registerMedia(program);
  registerRules(program);
  registerForms(program);
}
