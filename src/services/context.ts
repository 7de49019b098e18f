/**
 * What every handler, service and command receives: the storage context (storage/context.ts), the
 * event bus, the workspaces, the webhook dispatcher and the resolved options. Repositories hang off
 * it through `repo()` (storage/context.ts) so feature modules add theirs without a central registry.
 */
import type { StorageContext } from "../storage/context.js";
import type { WorkspaceRepo } from "../storage/workspaces.js";
import type { EventBus } from "./bus.js";
import type { Dispatcher } from "../webhooks/types.js";

export interface ResolvedOptions {
  dataDir: string | undefined;
  trustProxy: boolean;
  allowPrivateWebhookTargets: boolean;
  /** Largest JSON body, bytes. */
  bodyLimit: number;
  /** Largest media upload or site deploy, bytes. */
  uploadLimit: number;
}

export interface ServiceContext extends StorageContext {
  bus: EventBus;
  workspaces: WorkspaceRepo;
  /** Webhook delivery (spec 6): fed from the bus, also used for test deliveries. */
  webhooks: Dispatcher;
  options: ResolvedOptions;
}
