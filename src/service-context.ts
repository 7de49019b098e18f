/**
 * What every handler, service and command receives: the storage handles, the event bus and the
 * resolved options. Repositories hang off it through `repo()` so feature modules add theirs
 * without a central registry.
 */
import type { Storage } from "unstorage";
import type { ConsolaInstance } from "consola";
import type { Sql } from "./storage/sql.js";
import type { Sealer } from "./storage/seal.js";
import type { EventBus } from "./services/bus.js";
import type { WorkspaceRepo } from "./storage/workspaces.js";
import type { SharedState } from "./storage/shared-state.js";
import type { Dispatcher } from "./webhooks/types.js";
import type { MailSender } from "./services/mail.js";
import type { ScryptParams } from "./core/scrypt.js";
import type { SignInLimits } from "./core/sign-in-limits.js";

export interface ResolvedOptions {
  dataDir: string | undefined;
  trustProxy: boolean;
  allowPrivateWebhookTargets: boolean;
  /** Largest JSON body, bytes. */
  bodyLimit: number;
  /** Largest media upload or site deploy, bytes. */
  uploadLimit: number;
  /** Site deploys kept per workspace, the live one included. */
  keepDeploys: number;
  /** Distinct bytes of site files a workspace may store over its kept deploys. */
  siteQuota: number;
  /** Most archive entries (files and directories) in one site deploy. */
  siteMaxFiles: number;
  /** scrypt cost of new password hashes: OWASP_SCRYPT unless `insecureFastPasswordHashing`. */
  passwordParams: ScryptParams;
  /** Sign-in throttling (http/middleware/login-limit.ts). */
  signInLimits: SignInLimits;
  /** Serve the web dashboard at `/_/` on each workspace's dashboard host. */
  dashboard: boolean;
}

export interface ServiceContext {
  sql: Sql;
  blobs: Storage;
  sealer: Sealer;
  bus: EventBus;
  shared: SharedState;
  logger: ConsolaInstance;
  workspaces: WorkspaceRepo;
  /** Webhook delivery (spec 6): fed from the bus, also used for test deliveries. */
  webhooks: Dispatcher;
  options: ResolvedOptions;
  /** Mail to end users (email verification); the `sendMail` option, or a logged no-op. */
  sendMail: MailSender;
  /** Milliseconds since the epoch; injectable for tests. */
  now(): number;
}

const repos = new WeakMap<ServiceContext, Map<unknown, unknown>>();

/**
 * One instance of a repository per service context.
 *
 * @example
 * const keys = repo(ctx, createKeyRepo);
 */
export function repo<T>(ctx: ServiceContext, factory: (ctx: ServiceContext) => T): T {
  let map = repos.get(ctx);
  if (!map) repos.set(ctx, (map = new Map()));
  if (!map.has(factory)) map.set(factory, factory(ctx));
  return map.get(factory) as T;
}
