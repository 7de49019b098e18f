/**
 * Command groups beyond serve/init/workspaces; each feature registers its own file here.
 */
import type { Command } from "commander";
import { registerWebhooks } from "./webhooks.js";
import { registerSite } from "./site.js";
import { registerAccessControl } from "./access-control.js";
import { registerContent } from "./content.js";
import { registerForms } from "./forms.js";
import { registerRules } from "./rules.js";
import { registerMedia } from "./media.js";
import { registerWebhookChanges } from "./webhooks-manage.js";

export function registerCommands(program: Command): void {
  registerWebhookChanges(registerWebhooks(program));
  registerSite(program);
  registerAccessControl(program);
  registerContent(program);
  registerMedia(program);
  registerRules(program);
  registerForms(program);
}
