/**
 * A contentsvc server child: `createService` from the BUILT package (dist/ through the package's
 * own exports) on node:http, the way `svc serve` serves it, after seeding its database.
 *
 * config: {dataDir, database?, secretKey?, seed?, touchCounter?, listen?, webhookCa?, durable?, versionPush?}
 */
import { createServer } from "node:http";
import { createConsola } from "consola";
import { importPackage } from "./pkg.mjs";

const { createService } = await importPackage();
import { installTouchCounter, seedWorkspace } from "./seed.mjs";

export async function start(config) {
  const t0 = performance.now();
  const svc = await createService({
    dataDir: config.dataDir,
    ...(config.database && { database: config.database }),
    blobs: config.blobs ?? "memory:",
    ...(config.secretKey && { secretKey: config.secretKey }),
    // Errors only: a bench must not measure log formatting.
    logger: createConsola({ level: 0 }),
    allowPrivateWebhookTargets: true,
    ...(config.versionPush === false && { versionPush: false }),
    ...(config.webhookCa && { webhooks: { ca: config.webhookCa, ...(config.durable && { durable: true }) } }),
  });
  const seeded = config.seed ? await seedWorkspace(svc.context, config.seed) : undefined;
  const counting = config.touchCounter ? await installTouchCounter(svc.context.sql) : false;
  const seedMs = performance.now() - t0;
  if (config.listen === false) {
    await svc.close();
    return { info: { seeded, seedMs } };
  }
  const server = createServer(svc.handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    info: { port: server.address().port, seeded, seedMs, dialect: svc.context.sql.dialect },
    commands: {
      /** Real last_used_at writes since start (SQLite trigger), or null when not counted. */
      async touches() {
        if (!counting) return null;
        return svc.context.sql.all("SELECT key_id, at FROM bench_touches ORDER BY at");
      },
      /** This process's CPU time so far (user + system, µs): per-request cost on a loaded machine. */
      async cpu() {
        const { user, system } = process.cpuUsage();
        return user + system;
      },
      /** Webhook dispatcher counters of the service. */
      async webhookStats() {
        return svc.context.webhooks.stats();
      },
    },
    async close() {
      // Requests autocannon abandoned at the end of a run may still be running: let them finish.
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
      server.closeAllConnections();
      await svc.close();
    },
  };
}
