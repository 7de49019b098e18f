#!/usr/bin/env node
/**
 * `npm run bench`: every scenario of docs/benchmarks.md against the BUILT package (dist/), servers
 * pinned to core 0 and this runner (autocannon, receivers on the load side) to core 1 where
 * taskset exists. Prints one table (figure, reference from the same run, ratio, target, met?) and
 * writes bench/results/latest.json.
 *
 *   node bench/run.mjs [--quick] [--only reads,auth,scale,writes,dispatcher,signature,startup,cluster,dashboard,durable]
 *                      [--runs N] [--duration S] [--profile main|scale|pg|writes|dispatcher|reference|naive]
 *                      [--no-build]
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LOAD_CORE, canPin, pinned } from "./lib/procs.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SCENARIOS = ["reads", "auth", "scale", "writes", "dispatcher", "signature", "startup", "cluster", "dashboard", "durable"];

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    runs: { type: "string" },
    duration: { type: "string" },
    profile: { type: "string" },
    "no-build": { type: "boolean", default: false },
  },
});

// Re-exec on the load core, so autocannon never competes with the server it measures.
if (canPin && !process.env.BENCH_PINNED) {
  const [cmd, argv] = pinned(LOAD_CORE, [process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
  const r = spawnSync(cmd, argv, { stdio: "inherit", env: { ...process.env, BENCH_PINNED: "1" } });
  process.exit(r.status ?? 1);
}

const only = new Set((args.only ?? SCENARIOS.join(",")).split(",").map((s) => s.trim()).filter(Boolean));
for (const s of only) if (!SCENARIOS.includes(s) && s !== "reference") throw new Error(`--only: unknown scenario ${s} (one of ${SCENARIOS.join(", ")})`);
const started = performance.now();
const log = (msg) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}`);

ensureBuilt();
snapshotPackage();
// Imported after the build: they load the package through its exports (dist/).
const { renderNotes, renderTable, row } = await import("./lib/table.mjs");
const { runReads } = await import("./scenarios/reads.mjs");
const { runWrites } = await import("./scenarios/writes.mjs");
const { runDispatcher } = await import("./scenarios/dispatcher.mjs");
const { runSignature } = await import("./scenarios/signature.mjs");
const { runStartup } = await import("./scenarios/startup.mjs");
const { runCluster } = await import("./scenarios/cluster.mjs");
const { runDashboard } = await import("./scenarios/dashboard.mjs");
const { runDurable } = await import("./scenarios/durable.mjs");

const resultsDir = join(ROOT, "bench/results");
const profileDir = join(resultsDir, "profiles");
const ctx = {
  quick: args.quick,
  runs: Number(args.runs ?? (args.quick ? 1 : 3)),
  duration: Number(args.duration ?? (args.quick ? 1 : 3)),
  connections: 50,
  writeConnections: 10,
  tmp: mkdtempSync(join(tmpdir(), "svc-bench-")),
  secretKey: Buffer.alloc(32, 9).toString("base64"),
  pgUrl: process.env.SVC_BENCH_DATABASE_URL || process.env.SVC_TEST_DATABASE_URL || undefined,
  refRps: undefined,
  log,
  nodeFlagsFor: (name) => (args.profile === name ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
};
if (args.profile) mkdirSync(profileDir, { recursive: true });

const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  node: process.version,
  loadAtStart: loadavg().map((l) => l.toFixed(2)).join(" "),
  pinned: canPin ? "servers on core 0, load generator on core 1 (taskset)" : "not pinned (no taskset or < 2 cores)",
};
log(`contentsvc bench${ctx.quick ? " (quick)" : ""}: ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}; ${machine.pinned}`);
log(`load average at start: ${machine.loadAtStart} (other processes on this machine skew every figure; ratios less so)`);
log(`runs ${ctx.runs} × ${ctx.duration} s, autocannon -c ${ctx.connections} (writes -c ${ctx.writeConnections}); PostgreSQL: ${ctx.pgUrl ? "yes" : "no"}`);

const rows = [];
const failures = [];
async function scenario(name, fn) {
  log(`== ${name}`);
  try {
    rows.push(...(await fn()));
  } catch (error) {
    failures.push(name);
    log(`!! ${name} failed: ${error?.stack ?? error}`);
    rows.push(row({ scenario: name, figure: "(scenario failed)", note: `failed: ${String(error?.message ?? error).split("\n")[0]}` }));
  }
}

try {
  if (only.has("signature")) await scenario("signature", () => runSignature(ctx));
  const reads = { reads: only.has("reads"), auth: only.has("auth"), scale: only.has("scale") };
  if (reads.reads || reads.auth || reads.scale || only.has("reference") || only.has("writes")) await scenario("reads", () => runReads(ctx, reads));
  if (only.has("writes")) await scenario("writes", () => runWrites(ctx));
  if (only.has("dispatcher")) await scenario("dispatcher", () => runDispatcher(ctx));
  if (only.has("startup")) await scenario("startup", () => runStartup(ctx));
  if (only.has("cluster")) await scenario("cluster", () => runCluster(ctx));
  if (only.has("dashboard")) await scenario("dashboard", () => runDashboard(ctx));
  if (only.has("durable")) await scenario("durable", () => runDurable(ctx));
} finally {
  rmSync(ctx.tmp, { recursive: true, force: true });
}

const order = (r) => Number.parseInt(r.scenario, 10) || 99;
rows.sort((a, b) => order(a) - order(b));
const totalS = (performance.now() - started) / 1000;
machine.loadAtEnd = loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`\n${renderTable(rows)}\n`);
const notes = renderNotes(rows);
if (notes) console.log(`${notes}\n`);
console.log(`finished in ${totalS.toFixed(0)} s${failures.length ? `; FAILED: ${failures.join(", ")}` : ""}`);
mkdirSync(resultsDir, { recursive: true });
const result = { date: new Date().toISOString(), machine, options: { ...args, runs: ctx.runs, duration: ctx.duration, connections: ctx.connections, postgres: Boolean(ctx.pgUrl) }, totalSeconds: totalS, rows, markdown: renderTable(rows, { markdown: true }) };
writeFileSync(join(resultsDir, "latest.json"), JSON.stringify(result, null, 2) + "\n");
console.log(`raw results: bench/results/latest.json${args.profile ? `; CPU profiles: bench/results/profiles/` : ""}`);
process.exitCode = failures.length ? 1 : 0;

/**
 * Copies package.json, dist/ and bin/ to .tmp/bench-pkg-<pid>/ (inside the repository, so the
 * dependencies still resolve from node_modules) and points every import at it (BENCH_PKG_DIR).
 */
function snapshotPackage() {
  const dir = join(ROOT, ".tmp", `bench-pkg-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  for (const name of ["package.json", "dist", "bin", "dashboard/dist"]) {
    if (existsSync(join(ROOT, name))) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  }
  process.env.BENCH_PKG_DIR = dir;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
}

/** Builds dist/ with tsdown when it is missing or older than src/ (unless --no-build). */
function ensureBuilt() {
  const dist = join(ROOT, "dist/index.mjs");
  const newest = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);
  if (args["no-build"] && existsSync(dist)) return;
  if (existsSync(dist) && statSync(dist).mtimeMs >= newest(join(ROOT, "src"))) return;
  log("building dist/ and the dashboard (npm run build)…");
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error("the build failed; fix it or run with --no-build against an existing dist/");
}
