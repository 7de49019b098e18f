/**
 * `svc webhooks`: the group, one file per concern — records.ts (list, create, test, secret: the
 * commands DESIGN §4.1 fixed), deliveries.ts (the delivery log, redelivery, secret rotation),
 * listen.ts (a local receiver) and manage.ts (update, delete, settings).
 */
import type { Command } from "commander";
import { registerRecordCommands } from "./records.js";
import { registerDeliveryCommands } from "./deliveries.js";
import { registerListen } from "./listen.js";
import { registerWebhookChanges } from "./manage.js";

export function registerWebhooks(program: Command): void {
  const wh = program.command("webhooks").description("Manage, test and receive webhooks");
  // This order is the order of `svc webhooks --help` and of the CLI reference.
  registerRecordCommands(wh);
  registerDeliveryCommands(wh);
  registerListen(wh);
  registerWebhookChanges(wh);
}
