#!/usr/bin/env node
/**
 * CPU time per uncached delivery list read, in-process (no sockets, no load generator), for a
 * machine too busy for req/s to mean much: each build's `createService` (SQLite, seeded like
 * scenario 2's `posts`) answers sequential requests through `svc.fetch`, and `process.cpuUsage()`
 * over the batch gives µs per request. Builds and variants alternate batch by batch in one process,
 * so drift hits all alike; medians are printed. The naive handler (bench/lib/naive-app.mjs) runs
 * the same way on the first build's database.
 *
 *   node bench/tools/cpu-reads.mjs [--pkg dist-dir-a,dist-dir-b] [--n 10000] [--rounds 7] [--requests 2000] [--only uncached]
 *   node --cpu-prof --cpu-prof-dir=bench/results/profiles bench/tools/cpu-reads.mjs --only uncached   # then bench/tools/profile-top.mjs
 *
 * `--pkg` names directories holding a built `index.mjs` (default: ./dist), e.g. a copy of dist/
 * built before a change, so before and after are measured in the same run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createConsola } from "consola";
import { seedWorkspace } from "../lib/seed.mjs";
import { createNaiveApp } from "../lib/naive-app.mjs";
import { cpuRounds } from "../lib/util.mjs";
import { bustingSort } from "../lib/load.mjs";

const { values: args } = parseArgs({
  options: { pkg: { type: "string", default: "dist" }, n: { type: "string", default: "10000" }, rounds: { type: "string", default: "7" }, requests: { type: "string", default: "2000" }, only: { type: "string" } },
});
const HOST = "bench.localhost";
const n = Number(args.n);
const perBatch = Number(args.requests);
const tmp = mkdtempSync(join(tmpdir(), "svc-cpu-reads-"));

const targets = [];
try {
  let key;
  for (const [i, dir] of args.pkg.split(",").entries()) {
    const { createService } = await import(pathToFileURL(join(resolve(dir), "index.mjs")).href);
    const dataDir = join(tmp, `svc${i}`);
    const svc = await createService({ dataDir, blobs: "memory:", logger: createConsola({ level: 0 }), secretKey: Buffer.alloc(32, 9).toString("base64") });
    const seeded = await seedWorkspace(svc.context, { slug: "bench", hosts: [HOST], collections: [{ name: "posts", access: "public", published: n, drafts: n }, { name: "private_posts", access: "private", published: n, drafts: n }], key: ["entries:read"] });
    key ??= seeded.tokens.key;
    // Each request spells the same query differently (the response cache is keyed on the raw query).
    let k = 0;
    const miss = () => new Request(`http://${HOST}/api/v1/posts?limit=20&${bustingSort(++k % 65_536)}`);
    targets.push({ name: `${dir} uncached`, close: () => svc.close(), call: () => svc.fetch(miss()) });
    targets.push({ name: `${dir} cached`, call: () => svc.fetch(new Request(`http://${HOST}/api/v1/posts?limit=20`)) });
    // The key check's cost: the same read of a private collection with an entries:read key.
    const auth = { authorization: `Bearer ${seeded.tokens.key}` };
    // A public read ignores the key, so this one costs what the header itself costs (a Request with headers).
    targets.push({ name: `${dir} cached, key ignored`, call: () => svc.fetch(new Request(`http://${HOST}/api/v1/posts?limit=20`, { headers: auth })) });
    targets.push({ name: `${dir} keyed cached`, call: () => svc.fetch(new Request(`http://${HOST}/api/v1/private_posts?limit=20`, { headers: auth })) });
    targets.push({ name: `${dir} keyed uncached`, call: () => svc.fetch(new Request(`http://${HOST}/api/v1/private_posts?limit=20&${bustingSort(++k % 65_536)}`, { headers: auth })) });
    if (i === 0) {
      const { app, db } = createNaiveApp({ database: join(dataDir, "contentsvc.db"), host: HOST, collection: "posts" });
      targets.push({ name: "naive handler", close: () => db.close(), call: () => app.fetch(new Request(`http://${HOST}/api/v1/posts`, { headers: { authorization: `Bearer ${key}` } })) });
    }
  }
  const measured = targets.filter((t) => !args.only || t.name.includes(args.only));
  for (const t of measured) {
    const res = await t.call();
    const body = await res.text();
    if (res.status !== 200 || JSON.parse(body).data.length !== 20) throw new Error(`${t.name}: ${res.status} ${body.slice(0, 200)}`);
  }
  await cpuRounds(measured.map((t) => ({ name: t.name, call: async () => (await t.call()).text() })), { rounds: Number(args.rounds), perBatch });
} finally {
  for (const t of targets) await t.close?.();
  rmSync(tmp, { recursive: true, force: true });
}
