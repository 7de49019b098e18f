/**
 * Scenario 7: `node bin/svc.mjs serve --port <free> --data <dir>` on a data directory pre-seeded
 * with 10,000 published (+ 10,000 draft) entries (embedded default: SQLite file, local blobs,
 * secret.key), from spawn to the first 200 on GET /healthz and on a delivery read. Reference: the
 * bare h3 app of scenario 1 started the same way. Also the CPU time (user + system, from
 * /proc/<pid>/stat, 10 ms ticks) the process had used by then: on a shared machine, wall-clock
 * start-up mostly measures the neighbours, CPU time much less.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_CORE, pinned, seedDataDir } from "../lib/procs.mjs";
import { row } from "../lib/table.mjs";
import { svcBin } from "../lib/pkg.mjs";
import { freePort, httpRequest, median, sleep } from "../lib/util.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SVC = svcBin(ROOT);
const BARE = join(ROOT, "bench/lib/bare-serve.mjs");

const TICKS_PER_S = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU ms (user + system) `pid` has used so far; undefined without /proc. taskset execs, so the pid is node's. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * Spawns `argv` pinned to the server core; ms until `paths` (in order) each answered 200, then
 * the CPU ms the process had used at the last of them.
 */
async function timeToFirst200(argv, paths, host) {
  const port = await freePort();
  const [cmd, args] = pinned(SERVER_CORE, [process.execPath, ...argv(port)]);
  const t0 = performance.now();
  const proc = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  proc.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  const times = [];
  try {
    for (const path of paths) {
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`exited early (${proc.exitCode}): ${stderr.slice(0, 400)}`);
        if (performance.now() - t0 > 20_000) throw new Error(`no 200 on ${path} within 20 s: ${stderr.slice(0, 400)}`);
        const res = await httpRequest(port, path, { host, timeoutMs: 2000 }).catch(() => undefined);
        if (res?.status === 200) break;
        await sleep(res ? 2 : 5);
      }
      times.push(performance.now() - t0);
    }
    times.push(cpuMsOf(proc.pid));
  } finally {
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
  return times;
}

export async function runStartup(ctx) {
  const n = ctx.quick ? 1_000 : 10_000;
  const dataDir = join(ctx.tmp, "startup");
  await seedDataDir(dataDir, n);
  const svc = [];
  const bare = [];
  for (let round = 1; round <= ctx.runs; round++) {
    bare.push(await timeToFirst200((port) => [BARE, String(port)], ["/healthz", "/api/v1/posts"], "localhost"));
    svc.push(await timeToFirst200((port) => [SVC, "serve", "--port", String(port), "--data", dataDir], ["/healthz", "/api/v1/posts?limit=20"], "demo.localhost"));
    ctx.log(`  round ${round}/${ctx.runs}: svc serve ${svc.at(-1).map((t) => Math.round(t)).join(" / ")} ms (healthz / read / CPU), bare h3 ${bare.at(-1).map((t) => Math.round(t)).join(" / ")} ms`);
  }
  const health = median(svc.map((t) => t[0]));
  const read = median(svc.map((t) => t[1]));
  const refHealth = median(bare.map((t) => t[0]));
  const refRead = median(bare.map((t) => t[1]));
  const cpu = svc.every((t) => t[2] !== undefined) ? median(svc.map((t) => t[2])) : undefined;
  const refCpu = bare.every((t) => t[2] !== undefined) ? median(bare.map((t) => t[2])) : undefined;
  return [
    row({ scenario: "7 start-up", figure: `svc serve → first 200 /healthz (${n.toLocaleString()} entries)`, value: health, unit: "ms", ref: refHealth, refLabel: "bare h3", target: "< 1,500 ms", met: health < 1500, runs: svc }),
    row({ scenario: "7 start-up", figure: "svc serve → first 200 delivery read", value: read, unit: "ms", ref: refRead, refLabel: "bare h3", target: "< 1,500 ms", met: read < 1500, runs: bare }),
    row({
      scenario: "7 start-up",
      figure: "svc serve → first 200 delivery read, CPU time",
      value: cpu,
      unit: "ms",
      ref: refCpu,
      refLabel: "bare h3",
      target: "≤ 2 × bare h3",
      met: cpu !== undefined && refCpu !== undefined ? cpu <= 2 * refCpu : null,
      note: cpu === undefined ? "no /proc on this system" : "",
      runs: svc.map((t) => t[2]),
    }),
  ];
}
