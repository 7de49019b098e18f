#!/usr/bin/env node
/**
 * Server CPU per entry write (µs of `process.cpuUsage()` in the server process per request),
 * for builds side by side in interleaved rounds: the figure to compare on a loaded machine, where
 * scenario 4's req/s swing with whatever else runs. Each build serves from its own child (a
 * SQLite service seeded like scenario 4, one webhook to a local HTTPS receiver unless `--no-hook`);
 * this process sends 10 concurrent POST (create) then PATCH (update) batches and waits until the
 * deliveries are done, so their CPU counts with the writes.
 *
 *   node bench/tools/writes-cpu.mjs [--rounds 5] [--requests 500] [--no-hook] <dist dir> [<dist dir>…]
 *
 * A dist dir is a copy of dist/ inside the repository (e.g. .tmp/dist-before, so its imports
 * resolve through node_modules); append `|pragma=value;…` to run SQLite pragmas on its connection.
 */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "../lib/util.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HOST = "writes.localhost";

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else await main();

async function child(distArg, dataDir) {
  const [dist, pragmas] = distArg.split("|");
  const { createService } = await import(pathToFileURL(join(dist, "index.mjs")).href);
  const { createConsola } = await import("consola");
  const { seedWorkspace } = await import("../lib/seed.mjs");
  const svc = await createService({
    dataDir,
    blobs: "memory:",
    secretKey: Buffer.alloc(32, 9).toString("base64"),
    logger: createConsola({ level: 0 }),
    allowPrivateWebhookTargets: true,
    webhooks: { ca: readFileSync(join(ROOT, "test/fixtures/tls/ca.pem"), "utf8") },
  });
  const seeded = await seedWorkspace(svc.context, { slug: "writes", hosts: [HOST], collections: [{ name: "wposts", access: "private", published: 0, drafts: 1000, keepIds: 1000 }], owner: true });
  if (pragmas) {
    const raw = await svc.context.sql.db0.getInstance();
    for (const p of pragmas.split(";")) raw.pragma(p);
  }
  const server = createServer(svc.handler);
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  process.send({ port: server.address().port, token: seeded.tokens.owner, ids: seeded.collections.wposts.entryIds });
  process.on("message", async (m) => {
    if (m === "cpu") {
      const u = process.cpuUsage();
      process.send({ cpu: u.user + u.system });
    } else if (m === "stats") process.send({ stats: await svc.context.webhooks.stats() });
    else if (m === "exit") {
      server.close();
      await svc.close();
      process.exit(0);
    }
  });
}

async function main() {
  const { values: args, positionals: dists } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: "string", default: "5" }, requests: { type: "string", default: "500" }, "no-hook": { type: "boolean", default: false } },
  });
  if (dists.length === 0) throw new Error("usage: node bench/tools/writes-cpu.mjs [--rounds N] [--requests N] [--no-hook] <dist dir>…");
  const rounds = Number(args.rounds);
  const n = Number(args.requests);
  const { start: startReceiver } = await import("../lib/receiver.mjs");
  const receiver = args["no-hook"] ? undefined : await startReceiver();
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const send = (port, token, method, path, body) =>
    new Promise((done, fail) => {
      const data = body && JSON.stringify(body);
      const headers = { host: HOST, authorization: `Bearer ${token}`, ...(data && { "content-type": "application/json", "content-length": Buffer.byteLength(data) }) };
      const req = request({ agent, host: "127.0.0.1", port, method, path, headers }, (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode));
      });
      req.on("error", fail);
      req.end(data);
    });

  const servers = [];
  for (const dist of dists) {
    const [dir, pragmas] = dist.split("|");
    const proc = fork(fileURLToPath(import.meta.url), ["--child", [resolve(dir), pragmas].filter(Boolean).join("|"), mkdtempSync(join(tmpdir(), "writes-cpu-"))]);
    const info = await new Promise((r) => proc.once("message", r));
    const ask = (m, key) => new Promise((r) => (proc.once("message", (x) => r(x[key])), proc.send(m)));
    const s = { dist, proc, ask, ...info, create: [], update: [] };
    if (receiver) {
      const status = await send(s.port, s.token, "POST", "/api/dashboard/webhooks", { url: `https://127.0.0.1:${receiver.info.port}/hook`, events: ["content.created", "content.updated"] });
      if (status !== 201) throw new Error(`webhook: ${status}`);
    }
    servers.push(s);
  }
  const idle = async (s) => {
    for (let i = 0; i < 400; i++) {
      const st = await s.ask("stats", "stats");
      if (st.pending === 0 && st.inFlight === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const batch = async (s, kind) => {
    const before = await s.ask("cpu", "cpu");
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < n) {
        const i = next++;
        const status =
          kind === "create"
            ? await send(s.port, s.token, "POST", "/api/dashboard/collections/wposts/entries", { title: `Post ${i}`, slug: `post-${i}`, summary: "x".repeat(200), views: i, featured: i % 3 === 0, _status: "draft" })
            : await send(s.port, s.token, "PATCH", `/api/dashboard/collections/wposts/entries/${s.ids[i % s.ids.length]}`, { title: "Updated title", views: i });
        if (status >= 300) failed++;
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    if (failed) throw new Error(`${s.dist}: ${failed} ${kind} requests failed`);
    await idle(s);
    if (kind === "update") await new Promise((r) => setTimeout(r, 700)); // updates coalesce for 0.5 s
    await idle(s);
    return ((await s.ask("cpu", "cpu")) - before) / n;
  };
  for (const s of servers) for (const kind of ["create", "update"]) await batch(s, kind); // warm-up
  for (let r = 0; r < rounds; r++) for (const s of servers) for (const kind of ["create", "update"]) s[kind].push(await batch(s, kind));
  const fmt = (xs) => `${median(xs).toFixed(0)} µs (runs ${xs.map((x) => x.toFixed(0)).join(", ")})`;
  for (const s of servers) console.log(`${s.dist}: create ${fmt(s.create)}; update ${fmt(s.update)}`);
  if (receiver) console.log(`deliveries received: ${(await receiver.commands.stats()).count}`);
  for (const s of servers) s.proc.send("exit");
  process.exit(0);
}
