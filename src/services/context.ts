/**
 * What every handler, service and command receives: the storage context (storage/context.ts), the
 * event bus, the workspaces, the webhook dispatcher, the MCP endpoint, mail and the resolved
 * options, and what createService builds once for all of them: the repositories (`ctx.db`,
 * storage/repositories.ts) and the in-memory caches (`ctx.caches`, services/caches.ts).
 */
import type { LRUCache } from "lru-cache";
import type { Grant } from "../core/grants.js";
import type { Principal } from "../core/principal.js";
import type { SignInLimits } from "../core/sign-in-limits.js";
import type { StorageContext, StorageOptions } from "../storage/context.js";
import type { KeyCredential } from "../storage/credentials.js";
import type { Repositories } from "../storage/repositories.js";
import type { Workspace, WorkspaceRepo } from "../storage/workspaces.js";
import type { EventBus } from "./bus.js";
import type { MailSender } from "./mail.js";
import type { Dispatcher, EventOutbox } from "../webhooks/types.js";
import type { DeliveryCache } from "./delivery-cache.js";
import type { DeliveryBackfill } from "./delivery-backfill.js";

/** A workspace as `ServiceContext.workspaces` returns it. */
export type { Workspace };

export interface ResolvedOptions extends StorageOptions {
  dataDir: string | undefined;
  trustProxy: boolean;
  allowPrivateWebhookTargets: boolean;
  /** Largest JSON body, bytes. */
  bodyLimit: number;
  /** How long one entry list read may run where the database can stop it (PostgreSQL), ms. */
  queryBudgetMs: number;
  /** Largest media upload or site deploy, bytes. */
  uploadLimit: number;
  /** Site deploys kept per workspace, the live one included. */
  keepDeploys: number;
  /** Distinct bytes of site files a workspace may store over its kept deploys. */
  siteQuota: number;
  /** Most archive entries (files and directories) in one site deploy. */
  siteMaxFiles: number;
  /** Site deploys this service unpacks at a time; one more is refused with 503. */
  deployConcurrency: number;
  /** Bytes of media assets one workspace may store. */
  mediaQuota: number;
  /** Bytes of files uploaded with form submissions one workspace may store. */
  submissionFileQuota: number;
  /** Sign-in throttling (http/middleware/login-limit.ts). */
  signInLimits: SignInLimits;
  /** Serve the web dashboard at `/_/` on each workspace's dashboard host. */
  dashboard: boolean;
}

export interface ServiceContext extends StorageContext {
  /** Every repository, built once on this context. */
  db: Repositories;
  caches: Caches;
  /** Fills stored delivery JSON in the background (services/delivery-backfill.ts). */
  deliveryBackfill: DeliveryBackfill;
  bus: EventBus;
  workspaces: WorkspaceRepo;
  /** Webhook delivery (spec 6): fed from the bus, also used for test deliveries. */
  webhooks: Dispatcher;
  /**
   * Durable delivery only (docs/webhooks.md): where a write records its events, inside its own
   * transaction. Undefined in the default in-memory mode.
   */
  outbox?: EventOutbox;
  /**
   * The MCP endpoint (spec 4.2) as a web handler for an authenticated key. Wired by createService,
   * so the HTTP route serves it without http importing mcp (they are sibling layers).
   */
  mcp(request: Request, caller: McpCaller): Promise<Response>;
  options: ResolvedOptions;
  /** Mail to end users (email verification): the `sendMail` option; undefined without a transport. */
  sendMail: MailSender | undefined;
}

/** Who calls the MCP endpoint: the workspace and the API key the HTTP layer authenticated. */
export interface McpCaller {
  workspaceId: string;
  /** The key's id (spec 2.5: `_created_by`), grants and narrowing (core/key-scope.ts). */
  key: { id: string; grants: readonly Grant[]; collections?: readonly string[] | null; publishedOnly?: boolean };
}

/**
 * The service's in-memory caches, built once on its context (services/caches.ts). Their types are
 * declared here, not in the modules that use them, because those modules take the context.
 */
export interface Caches {
  /** API key hash → key, at the credentials version it was read at (services/key-cache.ts). */
  keys: LRUCache<string, WorkspaceKey & { version: number }>;
  /** Delivery API responses (services/delivery-cache.ts). */
  delivery: DeliveryCache;
  /** Each workspace's lane of list reads, while it has reads (services/list-reads.ts). */
  readLanes: Map<string, ReadLane>;
}

/** An active key of the workspace, with the principal it authenticates as (built once, shared: read-only). */
export interface WorkspaceKey {
  /** recordKeyUse updates its lastUsedAt in place. */
  credential: KeyCredential;
  principal: Readonly<Extract<Principal, { kind: "key" }>>;
}

/** A workspace's list reads: how many run, and the waiting ones' wake-ups. */
export interface ReadLane {
  running: number;
  waiting: (() => void)[];
}
