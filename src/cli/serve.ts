/**
 * `svc serve`: serves every workspace over node:http. On an empty data directory it first creates
 * the demo workspace and prints its owner sign-in and an API key, once. `--cluster <n>` forks n
 * workers sharing the port (cluster.ts); each worker runs this same action without the bootstrap.
 */
import cluster from "node:cluster";
import { createServer } from "node:http";
import type { Command } from "commander";
import { consola } from "consola";
import { commandConfig, serviceOptions } from "./context.js";
import { developmentMail } from "./dev-mail.js";
import { parseClusterSize, runPrimary } from "./cluster.js";
import { baseUrl, clientHost, demoBanner } from "./banner.js";
import { createService } from "../service.js";
import { bootstrapDemo, type DemoCredentials } from "../services/bootstrap.js";
import { isServiceError } from "../core/errors.js";
import type { ServiceContext } from "../services/context.js";

interface ServeFlags {
  port?: string;
  hostname?: string;
  trustProxy?: boolean;
  cluster?: string;
  keepDeploys?: string;
  siteQuota?: string;
  siteMaxFiles?: string;
  loginAccountFailures?: string;
  loginAddressFailures?: string;
  loginBackoffMs?: string;
  loginMaxBackoffMs?: string;
  loginWindowMs?: string;
  dashboard?: boolean;
  durableWebhooks?: boolean;
}

/** The sign-in throttling settings a flag of the same name sets (docs/configuration.md). */
const LOGIN_KEYS = ["loginAccountFailures", "loginAddressFailures", "loginBackoffMs", "loginMaxBackoffMs", "loginWindowMs"] as const;

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Serve every workspace (SQLite + local files by default); on an empty data directory, first create the demo workspace on localhost, 127.0.0.1 and [::1]")
    .option("--port <port>", "port [PORT] (default 3000)")
    .option("--hostname <host>", "interface to listen on (default 127.0.0.1)")
    .option("--trust-proxy", "read X-Forwarded-Host, and the client address from X-Forwarded-For, from a trusted reverse proxy")
    .option("--no-dashboard", "do not serve the web dashboard at /_/")
    .option("--durable-webhooks", "record webhook events in the database and deliver from there: nothing is lost to a crash or restart, several instances share the work (docs/webhooks.md)")
    .option("--cluster <n>", "run n worker processes sharing the port (node:cluster; see docs/scaling.md)")
    .option("--keep-deploys <n>", "site deploys kept per workspace [SVC_KEEP_DEPLOYS] (default 10)")
    .option("--site-quota <bytes>", "bytes of distinct site files per workspace [SVC_SITE_QUOTA] (default 500 MiB)")
    .option("--site-max-files <n>", "most archive entries in one site deploy [SVC_SITE_MAX_FILES] (default 10000)")
    .option("--login-account-failures <n>", "failed sign-ins on one account from one address before back-off starts (default 10)")
    .option("--login-address-failures <n>", "failed sign-ins from one address, all accounts together, before back-off starts (default 100)")
    .option("--login-backoff-ms <ms>", "first sign-in back-off, doubled with each further failure (default 1000)")
    .option("--login-max-backoff-ms <ms>", "longest sign-in back-off (default 900000)")
    .option("--login-window-ms <ms>", "failed sign-ins are forgotten this long after the last one (default 3600000)")
    .action(async (opts: ServeFlags, cmd: Command) => {
      const { config } = await commandConfig(cmd, {
        ...Object.fromEntries(LOGIN_KEYS.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])),
        ...(opts.port !== undefined && { port: opts.port as unknown as number }),
        ...(opts.hostname !== undefined && { hostname: opts.hostname }),
        ...(opts.trustProxy && { trustProxy: true }),
        ...(opts.keepDeploys !== undefined && { keepDeploys: opts.keepDeploys as unknown as number }),
        ...(opts.siteQuota !== undefined && { siteQuota: opts.siteQuota as unknown as number }),
        ...(opts.siteMaxFiles !== undefined && { siteMaxFiles: opts.siteMaxFiles as unknown as number }),
        ...(opts.dashboard === false && { dashboard: false }),
      });
      const size = parseClusterSize(opts.cluster);
      const announce = (port: number, demo: DemoCredentials | undefined, workers?: number) => {
        const base = baseUrl(config.hostname, port);
        const where = clientHost(config.hostname) === config.hostname ? "" : ` (interface ${config.hostname})`;
        consola.success(`contentsvc listening on ${base}${where}${workers ? ` (${workers} workers)` : ""}`);
        if (demo) consola.log(demoBanner(demo, base, config.dashboard).join("\n"));
        if (config.allowPrivateWebhookTargets) consola.warn("Webhook targets on private/loopback addresses are allowed (development only)");
      };
      if (size !== undefined && cluster.isPrimary) {
        return runPrimary(config, size, { bootstrap: bootstrapOnce, ready: (port, demo) => announce(port, demo, size) });
      }

      let listening = config.port;
      const svc = await createService({
        ...serviceOptions(config),
        ...developmentMail(config.hostname, () => listening),
        ...(opts.durableWebhooks && { webhooks: { durable: true } }),
      });
      // A cluster worker: the primary already bootstrapped and announces the port.
      const demo = cluster.isWorker ? undefined : await bootstrapOnce(svc.context).catch(async (error: unknown) => {
        await svc.close();
        throw error;
      });
      const server = createServer(svc.handler);
      // Slow or idle clients must not hold sockets forever.
      server.requestTimeout = 60_000;
      server.headersTimeout = 20_000;
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.port, config.hostname, () => resolve());
      }).catch(async (error: unknown) => {
        await svc.close();
        throw error;
      });
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      listening = port;
      if (!cluster.isWorker) announce(port, demo);

      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) return;
          stopping = true;
          consola.info(`${signal}: closing${cluster.isWorker ? ` worker ${process.pid}` : ""} (flushing debounced webhook deliveries)…`);
          server.close();
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
