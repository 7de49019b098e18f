/**
 * `svc serve --cluster <n>`: the primary process of a node:cluster (docs/scaling.md). It migrates
 * and creates the demo workspace once, forks n workers that share the listening port, restarts a
 * worker that dies, and on SIGINT/SIGTERM stops every worker gracefully (each flushes its debounced
 * webhook deliveries) and returns when all have exited.
 */
import cluster, { type Worker } from "node:cluster";
import { consola } from "consola";
import type { CliConfig } from "./config.js";
import { serviceOptions } from "./context.js";
import { UsageError } from "./errors.js";
import { createService } from "../service.js";
import type { DemoCredentials } from "../services/bootstrap.js";

/** Workers must listen within this time, or the start fails. */
const START_TIMEOUT_MS = 60_000;
/** Pause before replacing a crashed worker, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1000;

/** The worker count of `--cluster <n>`, or undefined when the flag is absent. */
export function parseClusterSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`--cluster must be a whole number from 1 to 256 (got ${value})`);
  return n;
}

export interface PrimaryHooks {
  /** Creates the demo workspace if the database is empty (run once, in the primary). */
  bootstrap(ctx: Awaited<ReturnType<typeof createService>>["context"]): Promise<DemoCredentials | undefined>;
  /** Called once every worker listens, with the shared port. */
  ready(port: number, demo: DemoCredentials | undefined): void;
}

/** Runs the primary until a signal stopped every worker. */
export async function runPrimary(config: CliConfig, size: number, hooks: PrimaryHooks): Promise<void> {
  // Migrations and the demo bootstrap run here once, so workers never race each other for them.
  // The workers fill stored delivery JSON at their start: no start-up pass in this short-lived service.
  const svc = await createService(serviceOptions(config), { deliveryBackfill: "changes" });
  let demo: DemoCredentials | undefined;
  try {
    demo = await hooks.bootstrap(svc.context);
  } finally {
    await svc.close();
  }

  const listening = new Set<Worker>();
  let stopping = false;
  let started = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`cluster workers did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
      reject(error);
    };
    cluster.on("listening", (worker, address) => {
      listening.add(worker);
      if (started || listening.size < size) return;
      started = true;
      clearTimeout(timer);
      hooks.ready(address.port, demo);
      resolve();
    });
    cluster.on("exit", (worker, code, signal) => {
      listening.delete(worker);
      if (stopping) return;
      if (!started) return fail(new Error(`cluster worker ${worker.process.pid} exited during start (${signal ?? `code ${code}`})`));
      consola.warn(`cluster worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a new one`);
      setTimeout(() => !stopping && cluster.fork(), RESTART_DELAY_MS).unref();
    });
    if (!config.redis) consola.info("No --redis: each worker keeps its own rate limits and webhook windows (docs/scaling.md)");
    for (let i = 0; i < size; i++) cluster.fork();
  });

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      consola.info(`${signal}: stopping ${size} workers (each flushes its debounced webhook deliveries)…`);
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
      if (alive.length === 0) return resolve();
      let left = alive.length;
      for (const w of alive) {
        w.once("exit", () => --left === 0 && resolve());
        // The worker's own SIGTERM handler closes it gracefully (serve.ts).
        w.process.kill("SIGTERM");
      }
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
}
