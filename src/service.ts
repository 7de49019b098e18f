/**
 * createService: the embeddable library entry. Opens storage (SQLite + local files by default),
 * migrates, wires the event bus and the h3 app, and hands back `fetch` and a Node handler.
 */
import { existsSync } from "node:fs";
import { resolve, join } from "node:path";
import { createConsola, type ConsolaInstance } from "consola";
import type { Storage } from "unstorage";
import type { H3 } from "h3";
import { toNodeHandler, type NodeHandler } from "h3/node";
import { z } from "zod";
import { openDatabase } from "./storage/open.js";
import { migrate } from "./storage/migrate.js";
import type { Sql } from "./storage/sql.js";
import { fromDb0, isDb0Database } from "./storage/from-db0.js";
import type { Database as Db0Database } from "db0";
import { createBlobStorage } from "./storage/blobs.js";
import { preparePrivateDir } from "./storage/private-files.js";
import { createSealer, loadMasterKeys } from "./storage/seal.js";
import { createWorkspaceRepo } from "./storage/workspaces.js";
import { createRepositories } from "./storage/repositories.js";
import { startVersionPush } from "./storage/version-push.js";
import { createMemorySharedState, type SharedState } from "./storage/shared-state.js";
import { createEventBus } from "./services/bus.js";
import { createCaches } from "./services/caches.js";
import { createDeliveryBackfill } from "./services/delivery-backfill.js";
import type { MailSender } from "./services/mail.js";
import { createHttpApp } from "./http/app.js";
import type { RequestLogger } from "./http/request-log.js";
import { withPeerAddress } from "./http/peer-address.js";
import type { ServiceContext } from "./services/context.js";
import { bootstrapWorkspace, type WorkspaceBootstrap } from "./services/bootstrap.js";
import { isServiceError } from "./core/errors.js";
import { createServiceDispatcher, deliveryMode, type WebhookTuning } from "./webhooks/service-dispatcher.js";
import type { EventOutbox } from "./webhooks/types.js";
import { recordAttempt } from "./services/webhook-deliveries.js";
import { INSECURE_FAST_SCRYPT, OWASP_SCRYPT } from "./core/scrypt.js";
import { resolveSignInLimits, type SignInLimits } from "./core/sign-in-limits.js";
import { DEFAULT_QUERY_BUDGET_MS } from "./core/entry-query.js";

/** Options of {@link createService}. Every field is optional; the defaults make a working service. */
export interface ServiceOptions {
  /** Directory for the embedded defaults (SQLite file, blobs, secret.key). Default `./.svc`. */
  dataDir?: string;
  /**
   * A database URL (`postgres://…`, a SQLite file path, `:memory:`), an open {@link Sql}
   * (`openDatabase(url)`), or a db0 `Database` (`createDatabase(connector)`) of the better-sqlite3,
   * node-sqlite, bun-sqlite or postgresql connector; the caller closes what it passed. A db0
   * postgresql `Database` is one connection (statements wait for a transaction), without query
   * budget or change notifications: a URL is the production choice. Default `<dataDir>/contentsvc.db`.
   */
  database?: string | Sql | Db0Database;
  /** A blob location (directory, `memory:`, `redis://…`) or an unstorage `Storage`. Default `<dataDir>/blobs`. */
  blobs?: string | Storage;
  /** Redis URL for state shared by several instances. Default: in-process. */
  redis?: string;
  /** Master key for secrets at rest, base64 of 32 bytes. Default `<dataDir>/secret.key` (generated on first run). */
  secretKey?: string;
  /** Older master keys (base64 of 32 bytes each), still accepted to open values sealed before a rotation. */
  oldSecretKeys?: string[];
  /** Behind a trusted proxy: read X-Forwarded-Host, and the client address from the right-most X-Forwarded-For entry. Default false. */
  trustProxy?: boolean;
  /** Let webhook URLs point at loopback/private addresses (local development, tests). Default false. */
  allowPrivateWebhookTargets?: boolean;
  /** Largest JSON request body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * How long one entry list read (delivery, dashboard, MCP, CLI) may run, in ms, on PostgreSQL
   * (statement_timeout): past it the read is stopped and answers 503 naming the budget. SQLite
   * cannot stop a running statement; there the query language's own bounds hold
   * (docs/content.md "What a query can cost"). Default 2000.
   */
  queryBudgetMs?: number;
  /** Largest media upload or site deploy in bytes. Default 50 MiB. */
  uploadLimit?: number;
  /** Site deploys kept per workspace (rollback targets), the live one included; older ones and their files are deleted. Default 10. */
  keepDeploys?: number;
  /** Bytes of distinct site files one workspace may store over its kept deploys (413 for a deploy larger alone). Default 500 MiB. */
  siteQuota?: number;
  /** Most archive entries (files and directories) in one site deploy (413 past it). Default 10,000. */
  siteMaxFiles?: number;
  /**
   * Site deploys this service unpacks at a time (each holds at most a 4 MiB write batch or one
   * file in memory); one more is refused with 503 and Retry-After. Default 2.
   */
  deployConcurrency?: number;
  /** Bytes of media assets one workspace may store (413 for an upload that would pass it). Default 1 GiB. */
  mediaQuota?: number;
  /** Bytes of files uploaded with form submissions one workspace may store (413 past it). Default 1 GiB. */
  submissionFileQuota?: number;
  /** Logger; default a consola instance tagged `contentsvc`. */
  logger?: ConsolaInstance;
  /** Webhook delivery tuning for tests and embedders (extra CAs, DNS lookup, clock, timeouts). */
  webhooks?: WebhookTuning;
  /** Clock in ms, for tests. Default Date.now. */
  now?: () => number;
  /**
   * Sends mail to end users (email-verification tokens; docs/identity.md), e.g. through nodemailer.
   * Default none: self sign-up cannot be turned on, and sign-up and verification mail answer 503.
   */
  sendMail?: MailSender;
  /**
   * Sign-in throttling (docs/access.md): `accountFailures` (10) free failures per account + client
   * address, `addressFailures` (100) per address, then a back-off from `backoffMs` (1000) doubling up
   * to `maxBackoffMs` (15 min); failures forgotten `windowMs` (1 h) after the last one.
   */
  signInLimits?: Partial<SignInLimits>;
  /**
   * Tests only: hash new passwords with scrypt N=2^10 instead of OWASP's N=2^17 (r=8, p=1), so
   * suites that create many members and end users stay fast. Logs a warning at start; the CLI never sets it; a
   * service without it rehashes such a password at the user's next sign-in. Default false.
   */
  insecureFastPasswordHashing?: boolean;
  /** Serve the web dashboard at `/_/` on each workspace's dashboard host (docs/dashboard.md). Default true. */
  dashboard?: boolean;
  /**
   * Called once per answered request, failures included, with `{method, host, path, status, ms,
   * principal}`: the path keeps query parameter names only, `principal` is `key:<id>`,
   * `user:<id>`, `account:<id>` or `-`; never a credential or a body. Default: no request log.
   */
  requestLog?: RequestLogger;
  /**
   * PostgreSQL: keep each workspace's tenant row and content version in memory, invalidated by
   * LISTEN/NOTIFY (docs/production.md), so a read without a credential needs no round trip to
   * resolve its tenant. Turn it off where LISTEN does not work (a pooler in transaction mode).
   * Ignored on SQLite. Writes made through a `database` handle you passed, rather than through the
   * service, show on this service like another instance's: once their notification arrived.
   * Default true.
   */
  versionPush?: boolean;
  /**
   * A first workspace and its owner, created at start when the database has no workspace at all
   * (so never again once one exists, whichever created it): `{ workspace: { slug, hosts, name?,
   * dashboardHost?, identity? }, owner: { email, password } }`. Without it, a service that starts
   * with no workspace logs how to create one. Default none.
   */
  bootstrap?: WorkspaceBootstrap;
}

const optionsSchema = z
  .object({
    dataDir: z.string().min(1).optional(),
    database: z
      .union([
        z.string().min(1),
        z.custom<Sql | Db0Database>((v) => isDb0Database(v) || (typeof v === "object" && v !== null && "dialect" in v && typeof (v as Sql).transaction === "function"), {
          message: "must be a database URL, an Sql from openDatabase() or a db0 Database",
        }),
      ])
      .optional(),
    blobs: z.union([z.string().min(1), z.custom<Storage>((v) => typeof v === "object" && v !== null && "getItem" in v)]).optional(),
    redis: z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional(),
    secretKey: z.string().min(1).optional(),
    oldSecretKeys: z.array(z.string().min(1)).optional(),
    trustProxy: z.boolean().optional(),
    allowPrivateWebhookTargets: z.boolean().optional(),
    bodyLimit: z.number().int().positive().optional(),
    queryBudgetMs: z.number().int().positive().optional(),
    uploadLimit: z.number().int().positive().optional(),
    keepDeploys: z.number().int().min(1).optional(),
    siteQuota: z.number().int().positive().optional(),
    siteMaxFiles: z.number().int().positive().optional(),
    deployConcurrency: z.number().int().positive().optional(),
    mediaQuota: z.number().int().positive().optional(),
    submissionFileQuota: z.number().int().positive().optional(),
    logger: z.any().optional(),
    webhooks: z.record(z.string(), z.unknown()).optional(),
    now: z.function().optional(),
    sendMail: z.function().optional(),
    signInLimits: z.record(z.string(), z.unknown()).optional(),
    insecureFastPasswordHashing: z.boolean().optional(),
    dashboard: z.boolean().optional(),
    requestLog: z.function().optional(),
    versionPush: z.boolean().optional(),
    bootstrap: z
      .strictObject({
        workspace: z.strictObject({
          slug: z.string(),
          hosts: z.array(z.string()).min(1),
          name: z.string().optional(),
          dashboardHost: z.string().optional(),
          identity: z.boolean().optional(),
        }),
        owner: z.strictObject({ email: z.string(), password: z.string() }),
      })
      .optional(),
  })
  .strict();

export interface Service {
  /** The h3 app; mount it or call `app.request()`. */
  app: H3;
  /**
   * Web-standard handler for Bun.serve, Deno.serve, workers. Pass it to Bun.serve or Deno.serve
   * as is: the second argument they give it (server / info) supplies the client's address.
   */
  fetch: (request: Request, runtime?: unknown) => Promise<Response>;
  /** node:http / Express handler. */
  handler: NodeHandler;
  /** Storage, bus and options, for advanced embedding and tests. */
  context: ServiceContext;
  /**
   * Graceful close: flushes debounced webhook deliveries, lets the stored delivery JSON filler
   * finish its batch in flight (services/delivery-backfill.ts; the rest is filled later), then
   * closes storage. Every step runs even if one fails; the first failure is thrown.
   */
  close(): Promise<void>;
}

/**
 * @internal Not part of the public options. `deliveryBackfill: "changes"`: no start-up pass over
 * every collection's stored delivery JSON (the command line's service lives for one command; the
 * server's start, or a read finding bodies missing, fills them); field changes still ask for theirs.
 */
export interface InternalServiceOptions {
  deliveryBackfill?: "all" | "changes";
}

/** Loaded on the first MCP request of any service in this process. */
let mcpModule: Promise<typeof import("./mcp/server.js")> | undefined;

/**
 * Creates a service.
 *
 * @example
 * import { createService } from "contentsvc";
 * const svc = await createService({ dataDir: "./.svc" });
 * Bun.serve({ fetch: svc.fetch });
 */
export async function createService(options: ServiceOptions = {}, internal: InternalServiceOptions = {}): Promise<Service> {
  // Parsed once per service: zod's compiled fast path (generated with `new Function`) would cost
  // more to build than it saves.
  const parsed = optionsSchema.safeParse(options, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`contentsvc: invalid option ${issue.path.join(".") || "(options)"}: ${issue.message}`);
  }
  // Options only, never the environment: an embedding app must not have its settings (SSRF
  // protection included) changed by variables it never heard of. The CLI maps environment to options.
  const dataDir = resolve(options.dataDir ?? "./.svc");
  const logger = options.logger ?? createConsola({ defaults: { tag: "contentsvc" } });
  const now = options.now ?? Date.now;
  const signInLimits = withOptionPrefix(() => resolveSignInLimits(options.signInLimits as Partial<SignInLimits> | undefined));

  // Drafts, submissions and end users' e-mails live here: private to the service's user (0700).
  if (!options.secretKey || existsSync(dataDir)) {
    const was = preparePrivateDir(dataDir);
    if (was !== undefined) logger.warn(`Data directory ${dataDir} was open to other users (mode ${was.toString(8)}): changed to 700`);
  }
  const given = options.database;
  const sql = typeof given === "object" ? (isDb0Database(given) ? await fromDb0(given) : given) : await openDatabase(given ?? join(dataDir, "contentsvc.db"));
  const ownsSql = typeof options.database !== "object";
  const cleanup: (() => Promise<unknown>)[] = [];
  try {
    await migrate(sql);
    const blobs = typeof options.blobs === "object" ? options.blobs : await createBlobStorage(options.blobs ?? join(dataDir, "blobs"));
    const sealer = createSealer(loadMasterKeys({ secretKey: options.secretKey, oldKeys: options.oldSecretKeys, dataDir }));
    const shared: SharedState = options.redis
      ? await (await import("./storage/redis-state.js")).createRedisSharedState(options.redis)
      : createMemorySharedState(now);
    cleanup.push(() => shared.close());
    const allowPrivate = options.allowPrivateWebhookTargets ?? false;
    const tuning = options.webhooks as WebhookTuning | undefined;
    const mode = await deliveryMode(sql, tuning?.durable);
    let up: boolean | undefined; // undefined until first listening: a failed start is a fallback, not an interruption
    const push = options.versionPush === false ? undefined : startVersionPush(sql, (listening) => {
      if (up === true && !listening) logger.warn("PostgreSQL change notifications interrupted: tenants are read from the database until they resume");
      if (up === false && listening) logger.info("PostgreSQL change notifications resumed");
      if (up !== undefined || listening) up = listening;
    });
    if (push) cleanup.push(() => push.close());
    // Every write of this instance goes through `local`, which flushes the pushed copy on commit.
    const local = push ? push.track(sql) : sql;
    const webhooks = createServiceDispatcher({
      source: {
        targetsFor: (workspaceId, event) => context.db.webhooks.targetsFor(workspaceId, event),
        current: (workspaceId, webhookId) => context.db.webhooks.current(workspaceId, webhookId),
      },
      logger,
      onAttempt: (record) => recordAttempt(context, record),
      allowPrivateTargets: allowPrivate,
      tuning,
      redisUrl: options.redis,
      mode,
      sql,
    });
    // A start that fails from here on must stop the durable poller and heartbeat too (close is idempotent).
    cleanup.push(() => webhooks.close());
    const base: Omit<ServiceContext, "db" | "caches" | "deliveryBackfill"> = {
      webhooks,
      ...(webhooks.record && { outbox: webhooks as EventOutbox }),
      sql: local,
      blobs,
      sealer,
      bus: createEventBus((error) => logger.error("event listener failed:", error)),
      shared,
      logger,
      workspaces: push ? push.workspaces(createWorkspaceRepo(local)) : createWorkspaceRepo(sql),
      // The MCP SDK is the heaviest import of the service (~0.3-0.8 s to load): only a first MCP
      // request pays for it, not start-up.
      mcp: async (request, caller) => (await (mcpModule ??= import("./mcp/server.js"))).handleMcpRequest(request, { service: context, ...caller }),
      options: {
        dataDir,
        trustProxy: options.trustProxy ?? false,
        allowPrivateWebhookTargets: allowPrivate,
        bodyLimit: options.bodyLimit ?? 1024 * 1024,
        queryBudgetMs: options.queryBudgetMs ?? DEFAULT_QUERY_BUDGET_MS,
        uploadLimit: options.uploadLimit ?? 50 * 1024 * 1024,
        keepDeploys: options.keepDeploys ?? 10,
        siteQuota: options.siteQuota ?? 500 * 1024 * 1024,
        siteMaxFiles: options.siteMaxFiles ?? 10_000,
        deployConcurrency: options.deployConcurrency ?? 2,
        mediaQuota: options.mediaQuota ?? 1024 ** 3,
        submissionFileQuota: options.submissionFileQuota ?? 1024 ** 3,
        passwordParams: options.insecureFastPasswordHashing ? INSECURE_FAST_SCRYPT : OWASP_SCRYPT,
        signInLimits,
        dashboard: options.dashboard ?? true,
      },
      sendMail: options.sendMail,
      now,
    };
    // Repositories and caches keep the context they are built from: built on this very object.
    const context = base as ServiceContext;
    context.db = createRepositories(context);
    context.caches = createCaches(context);
    context.deliveryBackfill = createDeliveryBackfill(context, sql);
    cleanup.push(() => context.deliveryBackfill.close());
    if (options.insecureFastPasswordHashing) logger.warn("insecureFastPasswordHashing is on: new password hashes are below OWASP's minimum (tests only)");
    if (options.bootstrap) {
      await bootstrapWorkspace(context, options.bootstrap).catch((error: unknown) => {
        throw isServiceError(error) && error.status === 400 ? new Error(`contentsvc: invalid option bootstrap: ${error.message}`) : error;
      });
    }
    // Deliveries follow the events of committed writes (spec 6); a persisting dispatcher took them in the write (record).
    const unsubscribe = context.bus.on((event) => context.webhooks.emit(event));
    // Bodies missing after an upgrade (or a change no pass finished) are filled in the background.
    if (internal.deliveryBackfill !== "changes") context.deliveryBackfill.fill();
    const app = createHttpApp(context, undefined, options.requestLog);
    let closed: Promise<void> | undefined;
    return {
      app,
      context,
      fetch: (request, runtime) => Promise.resolve(app.fetch(withPeerAddress(request, runtime))),
      handler: toNodeHandler(app),
      close() {
        closed ??= (async () => {
          unsubscribe();
          // Every step runs even when an earlier one fails, so nothing is left open; the first error is rethrown.
          const steps: (() => unknown)[] = [
            // spec 6.6: graceful shutdown flushes debounced deliveries (best effort).
            () => context.webhooks.close(),
            () => context.deliveryBackfill.close(),
            () => push?.close(),
            () => shared.close(),
            () => (ownsSql ? sql.close() : undefined),
            () => blobs.dispose?.(),
          ];
          const errors: unknown[] = [];
          for (const step of steps) {
            try {
              await step();
            } catch (error) {
              errors.push(error);
            }
          }
          if (errors.length > 0) throw errors[0];
        })();
        return closed;
      },
    };
  } catch (error) {
    for (const fn of cleanup) await fn().catch(() => {});
    if (ownsSql) await sql.close().catch(() => {});
    throw error;
  }
}

function withOptionPrefix<T>(resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    throw new Error(`contentsvc: invalid option ${(error as Error).message}`);
  }
}
