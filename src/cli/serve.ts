/**
 * `svc serve`: serves every workspace over node:http. On an empty data directory it first creates
 * the demo workspace and prints its owner sign-in and an API key, once.
 */
import { createServer } from "node:http";
import type { Command } from "commander";
import { consola } from "consola";
import { commandConfig, serviceOptions } from "./context.js";
import { createService } from "../service.js";
import { bootstrapDemo } from "../services/bootstrap.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Serve every workspace (SQLite + local files by default)")
    .option("--port <port>", "port [PORT] (default 3000)")
    .option("--hostname <host>", "interface to listen on (default 127.0.0.1)")
    .option("--allow-private-webhook-targets", "allow webhook URLs on loopback/private addresses [SVC_WEBHOOKS_ALLOW_PRIVATE=1]")
    .option("--trust-proxy", "read X-Forwarded-Host from a trusted reverse proxy")
    .action(async (opts: { port?: string; hostname?: string; allowPrivateWebhookTargets?: boolean; trustProxy?: boolean }, cmd: Command) => {
      const { config } = await commandConfig(cmd, {
        ...(opts.port !== undefined && { port: opts.port as unknown as number }),
        ...(opts.hostname !== undefined && { hostname: opts.hostname }),
        ...(opts.allowPrivateWebhookTargets && { allowPrivateWebhookTargets: true }),
        ...(opts.trustProxy && { trustProxy: true }),
      });
      const svc = await createService(serviceOptions(config));
      const demo = await bootstrapDemo(svc.context);
      const server = createServer(svc.handler);
      // Slow or idle clients must not hold sockets forever.
      server.requestTimeout = 60_000;
      server.headersTimeout = 20_000;
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.port, config.hostname, () => resolve());
      });
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      consola.success(`contentsvc listening on http://${config.hostname}:${port}`);
      if (demo) printDemo(demo, port);
      if (config.allowPrivateWebhookTargets) consola.warn("Webhook targets on private/loopback addresses are allowed (development only)");

      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) return;
          stopping = true;
          consola.info(`${signal}: closing (flushing debounced webhook deliveries)…`);
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
    });
}

function printDemo(demo: NonNullable<Awaited<ReturnType<typeof bootstrapDemo>>>, port: number): void {
  const lines = [
    `Created the demo workspace on ${demo.hosts.join(" and ")} (shown once, keep it):`,
    ...(demo.owner ? [`  owner sign-in   ${demo.owner.email} / ${demo.owner.password}`] : []),
    ...(demo.apiKey ? [`  API key         ${demo.apiKey}`] : []),
    `  try             curl -H 'Host: demo.localhost' http://127.0.0.1:${port}/api/v1/posts`,
  ];
  consola.box(lines.join("\n"));
}
