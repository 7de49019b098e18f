/**
 * Scenario 9, whether a second worker pays off: `svc serve --cluster 2` against one `svc serve`
 * process on the same seeded SQLite data directory, delivery reads cached and uncached. Nothing is
 * pinned here: the cluster needs both cores, so the load generator shares them — on a 2-core
 * machine the gain is bounded by that; on more cores it grows with the worker count.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpus } from "node:os";
import { hasTaskset, seedDataDir } from "../lib/procs.mjs";
import { load, warmup } from "../lib/load.mjs";
import { row } from "../lib/table.mjs";
import { svcBin } from "../lib/pkg.mjs";
import { freePort, httpRequest, median, sleep } from "../lib/util.mjs";

const SVC = svcBin(fileURLToPath(new URL("../../", import.meta.url)));
const PATH = "/api/v1/posts?limit=20";

async function serve(dataDir, extra) {
  const port = await freePort();
  // The runner is pinned to the load core and children inherit that: widen to every core.
  const argv = [process.execPath, SVC, "serve", "--port", String(port), "--data", dataDir, ...extra];
  const [cmd, args] = hasTaskset ? ["taskset", ["-c", `0-${cpus().length - 1}`, ...argv]] : [argv[0], argv.slice(1)];
  const proc = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  proc.stderr.on("data", (c) => (stderr += c));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`svc serve ${extra.join(" ")} exited: ${stderr.slice(0, 400)}`);
    if (Date.now() > deadline) throw new Error(`svc serve ${extra.join(" ")} not ready in 30 s`);
    const res = await httpRequest(port, PATH, { host: "demo.localhost", timeoutMs: 2000 }).catch(() => undefined);
    if (res?.status === 200) break;
    await sleep(20);
  }
  return {
    port,
    async stop() {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function measure(ctx, server, bust) {
  const opts = { port: server.port, path: PATH, host: "demo.localhost", connections: ctx.connections, bust };
  await warmup(opts);
  const runs = [];
  for (let i = 0; i < ctx.runs; i++) runs.push((await load({ ...opts, duration: ctx.duration })).rps);
  return { rps: median(runs), runs };
}

export async function runCluster(ctx) {
  const n = ctx.quick ? 1_000 : 10_000;
  const dataDir = join(ctx.tmp, "cluster");
  await seedDataDir(dataDir, n);
  const rows = [];
  for (const bust of [false, true]) {
    const one = await serve(dataDir, []);
    const single = await measure(ctx, one, bust);
    await one.stop();
    const two = await serve(dataDir, ["--cluster", "2"]);
    const cluster = await measure(ctx, two, bust);
    await two.stop();
    const label = bust ? "uncached" : "cached";
    ctx.log(`  ${label}: 1 process ${Math.round(single.rps)} req/s, --cluster 2 ${Math.round(cluster.rps)} req/s`);
    rows.push(
      row({
        scenario: "9 cluster",
        figure: `--cluster 2, public list read (${label}), unpinned`,
        value: cluster.rps,
        unit: "req/s",
        ref: single.rps,
        refLabel: "1 process",
        // With two cores shared by two workers and the load generator, no gain is possible here.
        target: cpus().length > 2 ? "> 1 process" : "informational on 2 cores",
        met: cpus().length > 2 ? cluster.rps > single.rps : null,
        runs: cluster.runs,
      }),
    );
  }
  return rows;
}
