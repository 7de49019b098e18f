/**
 * `svc serve`: serves every workspace over node:http. On an empty data directory it first creates
 * the demo workspace and prints its owner sign-in and an API key, once. `--cluster <n>` forks n
 * workers sharing the port (cluster.ts); each worker runs this same action without the bootstrap.
 */
import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import type { Command } from "commander";
import { consola } from "consola";
import { commandConfig, mailFlags, serviceOptions } from "./context.js";
import { announceMail, mailOptions, warnSignupsRefused } from "./mail.js";
import { parseClusterSize, runPrimary } from "./cluster.js";
import { baseUrl, clientHost, dashboardLines, demoBanner } from "./banner.js";
import { listenIpv6Loopback } from "./loopback.js";
import { parseLogFormat, serveLoggers } from "./request-log.js";
import { UsageError } from "./errors.js";
import type { LocalTls } from "./local-tls.js";
import { createService } from "../service.js";
import { bootstrapDemo, type DemoCredentials } from "../services/bootstrap.js";
import { isServiceError } from "../core/errors.js";
import type { ServiceContext, Workspace } from "../services/context.js";

interface ServeFlags {
  port?: string;
  hostname?: string;
  trustProxy?: boolean;
  cluster?: string;
  keepDeploys?: string;
  siteQuota?: string;
  siteMaxFiles?: string;
  deployConcurrency?: string;
  mediaQuota?: string;
  submissionFileQuota?: string;
  queryBudgetMs?: string;
  loginAccountFailures?: string;
  loginAddressFailures?: string;
  loginBackoffMs?: string;
  loginMaxBackoffMs?: string;
  loginWindowMs?: string;
  dashboard?: boolean;
  versionPush?: boolean;
  logFormat?: string;
  quiet?: boolean;
  https?: boolean;
  open?: boolean;
  durableWebhooks?: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  devMail?: boolean;
}

/** The sign-in throttling settings a flag of the same name sets (docs/configuration.md). */
const LOGIN_KEYS = ["loginAccountFailures", "loginAddressFailures", "loginBackoffMs", "loginMaxBackoffMs", "loginWindowMs"] as const;
/** The storage bounds a flag of the same name sets. */
const BOUND_KEYS = ["deployConcurrency", "mediaQuota", "submissionFileQuota"] as const;

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Serve every workspace (SQLite + local files by default); on an empty data directory, first create the demo workspace on localhost, 127.0.0.1 and [::1]")
    .option("--port <port>", "port [PORT] (default 3000)")
    .option("--hostname <host>", "interface to listen on (default 127.0.0.1, and [::1] beside it where the machine has IPv6)")
    .option("--trust-proxy", "read X-Forwarded-Host, and the client address from X-Forwarded-For, from a trusted reverse proxy")
    .option("--no-dashboard", "do not serve the web dashboard at /_/")
    .option("--no-version-push", "PostgreSQL: resolve every request's tenant in the database instead of keeping it in memory, invalidated by LISTEN/NOTIFY (behind a pooler in transaction mode) [SVC_VERSION_PUSH=0]")
    .option("--durable-webhooks", "record webhook events in the database and deliver from there: nothing is lost to a crash or restart, several instances share the work (docs/webhooks.md)")
    .option("--cluster <n>", "run n worker processes sharing the port (node:cluster; see docs/scaling.md)")
    .option("--keep-deploys <n>", "site deploys kept per workspace [SVC_KEEP_DEPLOYS] (default 10)")
    .option("--site-quota <bytes>", "bytes of distinct site files per workspace [SVC_SITE_QUOTA] (default 500 MiB)")
    .option("--site-max-files <n>", "most archive entries in one site deploy [SVC_SITE_MAX_FILES] (default 10000)")
    .option("--deploy-concurrency <n>", "site deploys one process unpacks at a time; one more gets 503 [SVC_DEPLOY_CONCURRENCY] (default 2)")
    .option("--media-quota <bytes>", "bytes of media assets per workspace [SVC_MEDIA_QUOTA] (default 1 GiB)")
    .option("--submission-file-quota <bytes>", "bytes of form submission files per workspace [SVC_SUBMISSION_FILE_QUOTA] (default 1 GiB)")
    .option("--query-budget-ms <ms>", "PostgreSQL: longest an entry list read may run before it is stopped (503) [SVC_QUERY_BUDGET_MS] (default 2000)")
    .option("--login-account-failures <n>", "failed sign-ins on one account from one address before back-off starts (default 10)")
    .option("--login-address-failures <n>", "failed sign-ins from one address, all accounts together, before back-off starts (default 100)")
    .option("--login-backoff-ms <ms>", "first sign-in back-off, doubled with each further failure (default 1000)")
    .option("--login-max-backoff-ms <ms>", "longest sign-in back-off (default 900000)")
    .option("--login-window-ms <ms>", "failed sign-ins are forgotten this long after the last one (default 3600000)")
    .option("--smtp-url <url>", "send mail to end users (verification e-mails) through this SMTP server: smtp[s]://user:pass@host:port [SVC_SMTP_URL]")
    .option("--mail-from <address>", "sender of that mail [SVC_MAIL_FROM] (default: the SMTP user when it is an address, else no-reply@<SMTP host>)")
    .option("--dev-mail", "development only: print mail to end users, tokens included, to the log instead of sending it [SVC_DEV_MAIL=1]")
    .option("--https", "serve HTTPS with a locally generated certificate for localhost, 127.0.0.1 and ::1 (its CA file is printed; not with --cluster)")
    .option("--open", "open the dashboard in a browser once listening (not with --cluster)")
    .option("--log-format <format>", "text (default) or json: one JSON object per log line")
    .option("--quiet", "no request log (one line per request: method, host, path with query names only, status, ms, principal)")
    .action(async (opts: ServeFlags, cmd: Command) => {
      const { logger, requestLog } = serveLoggers(parseLogFormat(opts.logFormat), opts.quiet === true);
      const { config } = await commandConfig(cmd, {
        ...Object.fromEntries([...LOGIN_KEYS, ...BOUND_KEYS].filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])),
        ...(opts.port !== undefined && { port: opts.port as unknown as number }),
        ...(opts.hostname !== undefined && { hostname: opts.hostname }),
        ...(opts.trustProxy && { trustProxy: true }),
        ...(opts.keepDeploys !== undefined && { keepDeploys: opts.keepDeploys as unknown as number }),
        ...(opts.siteQuota !== undefined && { siteQuota: opts.siteQuota as unknown as number }),
        ...(opts.siteMaxFiles !== undefined && { siteMaxFiles: opts.siteMaxFiles as unknown as number }),
        ...(opts.queryBudgetMs !== undefined && { queryBudgetMs: opts.queryBudgetMs as unknown as number }),
        ...(opts.dashboard === false && { dashboard: false }),
        ...(opts.versionPush === false && { versionPush: false }),
        ...mailFlags(opts),
      });
      const size = parseClusterSize(opts.cluster);
      if (size !== undefined && (opts.https || opts.open)) throw new UsageError("--https and --open work without --cluster (docs/production.md#listening)");
      let tls: LocalTls | undefined;
      // A restart (no demo to print) still lists where to sign in, and which sign-ups wait for mail.
      let workspaces: Workspace[] = [];
      const bootstrap = async (ctx: ServiceContext) => {
        const demo = await bootstrapOnce(ctx);
        if (!demo) workspaces = await ctx.workspaces.list();
        return demo;
      };
      const announce = (port: number, demo: DemoCredentials | undefined, workers?: number, ipv6 = false) => {
        const scheme = tls ? "https" : "http";
        const base = baseUrl(config.hostname, port, scheme);
        const where = clientHost(config.hostname) === config.hostname ? "" : ` (interface ${config.hostname})`;
        const also = ipv6 ? ` and ${baseUrl("::1", port, scheme)}` : "";
        consola.success(`contentsvc listening on ${base}${also}${where}${workers ? ` (${workers} workers)` : ""}`);
        if (tls) consola.info(`HTTPS with a local certificate; clients trust it with its CA: ${tls.caFile} (e.g. NODE_EXTRA_CA_CERTS, curl --cacert)`);
        if (demo) consola.log(demoBanner(demo, base, config.dashboard, tls?.caFile).join("\n"));
        else {
          const lines = dashboardLines(workspaces, base, config.dashboard);
          if (lines.length > 0) consola.log(lines.join("\n"));
        }
        if (config.allowPrivateWebhookTargets) consola.warn("Webhook targets on private/loopback addresses are allowed (development only)");
        announceMail(config, logger);
        if (!config.smtpUrl && !config.devMail) warnSignupsRefused(workspaces, logger);
      };
      let listening = config.port;
      // Before a cluster starts too: conflicting mail settings are a usage error of this command.
      const mail = mailOptions(config, logger, () => listening);
      if (size !== undefined && cluster.isPrimary) {
        return runPrimary(config, size, { bootstrap, ready: (port, demo) => announce(port, demo, size) });
      }

      const svc = await createService({
        ...serviceOptions(config),
        ...mail,
        logger,
        requestLog,
        ...(opts.durableWebhooks && { webhooks: { durable: true } }),
      });
      // A cluster worker: the primary already bootstrapped and announces the port.
      const demo = cluster.isWorker ? undefined : await bootstrap(svc.context).catch(async (error: unknown) => {
        await svc.close();
        throw error;
      });
      // listhen (with its certificate and browser helpers) is a large share of a start's CPU to
      // load (measured: docs/benchmarks.md, "Figures behind code comments"): only --https and --open need it.
      const listened = opts.https || opts.open ? listenWithListhen(svc.handler, config, opts, (t) => (tls = t)) : listenPlain(svc.handler, config);
      const server = await listened.catch(async (error: unknown) => {
        await svc.close();
        throw error;
      });
      // Slow or idle clients must not hold sockets forever.
      server.requestTimeout = 60_000;
      server.headersTimeout = 20_000;
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      listening = port;
      const ipv6 = cluster.isWorker ? undefined : await listenIpv6Loopback(server, config.hostname, port);
      if (!cluster.isWorker) announce(port, demo, undefined, ipv6 !== undefined);

      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) return;
          stopping = true;
          consola.info(`${signal}: closing${cluster.isWorker ? ` worker ${process.pid}` : ""} (flushing debounced webhook deliveries)…`);
          server.close();
          ipv6?.close();
          server.closeIdleConnections?.();
          void svc.close().finally(() => {
            server.closeAllConnections?.();
            resolve();
          });
        };
        process.once("SIGINT", () => stop("SIGINT"));
        process.once("SIGTERM", () => stop("SIGTERM"));
      });
      // The IPC channel to the primary would keep a worker alive.
      cluster.worker?.disconnect();
    });
}

type Handler = Parameters<typeof createServer>[1] & {};

/**
 * `--https` or `--open` in one process: listhen (unjs) listens, with the local CA and certificate
 * of local-tls.ts (so the printed commands can trust it) and opens the browser. The port is taken
 * as given: a busy port fails instead of listhen's fallback to another one, and 0 asks the OS.
 */
async function listenWithListhen(handler: Handler, config: { port: number; hostname: string; data: string }, opts: ServeFlags, onTls: (tls: LocalTls) => void): Promise<Server> {
  const { listen } = await import("listhen");
  let https: { cert: string; key: string } | false = false;
  if (opts.https) {
    const { localTls } = await import("./local-tls.js");
    const tls = await localTls(config.data);
    onTls(tls);
    https = { cert: tls.cert, key: tls.key };
  }
  const listener = await listen(handler, {
    // get-port-please resolves the port before listening: 0 would become 3000 (or the next free
    // one), so 0 asks for a random free port; an empty alternative range makes a busy port fail
    // (its type wants a pair). Its own console messages are off: we log through consola.
    port:
      config.port === 0
        ? { random: true, verbose: false }
        : { port: config.port, alternativePortRange: [] as unknown as [number, number], random: false, verbose: false },
    hostname: config.hostname,
    https,
    // /_/ on a workspace host redirects to its dashboard host.
    open: opts.open === true,
    baseURL: "/_/",
    // Our own banner prints the URLs; our own handlers shut down gracefully.
    showURL: false,
    autoClose: false,
    clipboard: false,
    isTest: false,
    isProd: opts.open !== true,
  });
  return listener.server as Server;
}

/**
 * Plain node:http, in one process and in a node:cluster worker (whose port is shared through the
 * primary; listhen would pick its own). The port is taken as given: a busy one fails, 0 asks the OS.
 */
async function listenPlain(handler: Handler, config: { port: number; hostname: string }): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(`Port ${config.port} is in use on ${config.hostname} (choose another with --port, or 0 for any free one)`) : error),
    );
    server.listen(config.port, config.hostname, () => resolve());
  });
  return server;
}

/**
 * bootstrapDemo, tolerating instances that start at the same moment on an empty database: the
 * loser of the race gets a conflict on the demo slug and simply has nothing to print.
 */
async function bootstrapOnce(ctx: ServiceContext): Promise<DemoCredentials | undefined> {
  try {
    return await bootstrapDemo(ctx);
  } catch (error) {
    if (isServiceError(error) && error.status === 409) return undefined;
    throw error;
  }
}
