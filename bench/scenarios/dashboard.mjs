/**
 * Scenario 10: the dashboard. Sizes from the build output (the first screen's entry JS + CSS
 * gzipped, against the 150 KB budget, and every asset); the shell (GET /_/ on the dashboard host)
 * under load from the built package, against the reference app's plain JSON; and, when Debian's
 * Chromium is installed, the time from navigation start to a usable sign-in form on a cold cache.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { load, warmup } from "../lib/load.mjs";
import { startChild } from "../lib/procs.mjs";
import { row } from "../lib/table.mjs";
import { median } from "../lib/util.mjs";

const DIST = fileURLToPath(new URL("../../dashboard/dist/", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const KB = 1024;

function sizes() {
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const gz = (path) => gzipSync(readFileSync(join(DIST, path))).byteLength;
  const entry = [...html.matchAll(/(?:src|href)="\/_\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const all = readdirSync(join(DIST, "assets")).map((f) => `assets/${f}`);
  return { first: entry.reduce((s, p) => s + gz(p), 0) + gz("index.html"), all: all.reduce((s, p) => s + gz(p), 0), files: all.length };
}

async function firstScreen(port, runs) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--host-resolver-rules=MAP *.localhost 127.0.0.1"],
  });
  const times = [];
  const blank = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://admin.bench.localhost:${port}/_/`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      const ms = await page.evaluate(() => performance.now());
      // Reference: the same browser loading a page without script (the service's /healthz).
      const other = await context.newPage();
      await other.goto(`http://bench.localhost:${port}/healthz`);
      const base = await other.evaluate(() => performance.now());
      if (i > 0) times.push(ms), blank.push(base); // the first run warms the browser process, not the page
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { times, blank };
}

export async function runDashboard(ctx) {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("dashboard/dist is missing: npm run build:dashboard");
  const s = sizes();
  ctx.log(`  first screen ${(s.first / KB).toFixed(1)} KB gzipped; all ${s.files} assets ${(s.all / KB).toFixed(1)} KB gzipped`);
  const rows = [
    row({ scenario: "10 dashboard", figure: "first screen: index.html + entry JS + CSS, gzipped", value: s.first / KB, unit: "KB", target: "≤ 150 KB", met: s.first <= 150 * KB }),
    row({ scenario: "10 dashboard", figure: `every asset (${s.files} files, screens lazy-loaded), gzipped`, value: s.all / KB, unit: "KB" }),
  ];
  const [svc, ref] = await Promise.all([
    startChild("service", { dataDir: join(ctx.tmp, "dashboard"), secretKey: ctx.secretKey, seed: { slug: "bench", hosts: ["bench.localhost"] } }),
    startChild("reference"),
  ]);
  try {
    const shell = { port: svc.info.port, path: "/_/", host: "admin.bench.localhost", connections: ctx.connections, duration: ctx.duration };
    const plain = { port: ref.info.port, path: "/api/v1/posts", connections: ctx.connections, duration: ctx.duration };
    await warmup(shell);
    await warmup(plain);
    const runs = { shell: [], ref: [] };
    for (let i = 0; i < ctx.runs; i++) {
      runs.shell.push((await load(shell)).rps);
      runs.ref.push((await load(plain)).rps);
    }
    rows.push(row({ scenario: "10 dashboard", figure: "shell GET /_/ (index.html, revalidated)", value: median(runs.shell), unit: "req/s", ref: median(runs.ref), refLabel: "reference app", runs: runs.shell }));
    if (existsSync(CHROMIUM)) {
      const { times, blank } = await firstScreen(svc.info.port, ctx.quick ? 3 : 5);
      ctx.log(`  first screen usable after ${times.map((t) => t.toFixed(0)).join(", ")} ms; a page without script: ${blank.map((t) => t.toFixed(0)).join(", ")} ms`);
      rows.push(row({ scenario: "10 dashboard", figure: "first screen usable in Chromium (cold cache, navigation start → sign-in form)", value: median(times), unit: "ms", ref: median(blank), refLabel: "page without script", target: "< 1000 ms", met: median(times) < 1000, runs: times }));
    } else {
      rows.push(row({ scenario: "10 dashboard", figure: "first screen usable in Chromium", note: `skipped: ${CHROMIUM} is missing` }));
    }
  } finally {
    await Promise.all([svc.stop(), ref.stop()]);
  }
  return rows;
}
