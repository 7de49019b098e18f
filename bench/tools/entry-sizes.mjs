#!/usr/bin/env node
/**
 * CPU time per uncached delivery list read for entries of several sizes, in-process, builds side
 * by side. Scenario 2's entries are ~420 bytes as delivered and it reads only the first page, so
 * its stored JSON table holds 20 bodies; what a real site builds up (every entry's body stored,
 * entries of a few KB) is measured here: each build's `createService` (SQLite) is seeded with
 * `--n` published + `--n` draft entries, their `summary` lengthened by each of `--sizes` bytes,
 * every page is read once so every body is stored, then uncached pages of 20 (the default sort
 * spelled anew per request, as in scenario 2) are timed with `process.cpuUsage()`. Targets
 * alternate batch by batch in one process; medians are printed.
 *
 *   node bench/tools/entry-sizes.mjs [--pkg dist-dir-a,dist-dir-b] [--sizes 0,1000,2000,3500] [--n 5000] [--rounds 7] [--requests 300]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createConsola } from "consola";
import { seedWorkspace } from "../lib/seed.mjs";
import { cpuRounds } from "../lib/util.mjs";
import { bustingSort } from "../lib/load.mjs";

const { values: args } = parseArgs({
  options: {
    pkg: { type: "string", default: "dist" },
    sizes: { type: "string", default: "0,1000,2000,3500" },
    n: { type: "string", default: "5000" },
    rounds: { type: "string", default: "7" },
    requests: { type: "string", default: "300" },
  },
});
const n = Number(args.n);
const perBatch = Number(args.requests);
const sizes = args.sizes.split(",").map(Number);
const tmp = mkdtempSync(join(tmpdir(), "svc-entry-sizes-"));
const read = async (svc, url) => {
  const res = await svc.fetch(new Request(url));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return body;
};

const targets = [];
try {
  let k = 0;
  for (const [i, dir] of args.pkg.split(",").entries()) {
    const { createService } = await import(pathToFileURL(join(resolve(dir), "index.mjs")).href);
    for (const size of sizes) {
      const host = `s${size}.localhost`;
      const svc = await createService({ dataDir: join(tmp, `svc${i}-${size}`), blobs: "memory:", logger: createConsola({ level: 0 }), secretKey: Buffer.alloc(32, 9).toString("base64") });
      await seedWorkspace(svc.context, { slug: `s${size}`, hosts: [host], collections: [{ name: "posts", access: "public", published: n, drafts: n }] });
      if (size > 0) await svc.context.sql.run("UPDATE entries SET data = json_set(data, '$.summary', json_extract(data, '$.summary') || ?)", [" ".repeat(size)]);
      for (let offset = 0; offset < n; offset += 100) await read(svc, `http://${host}/api/v1/posts?limit=100&offset=${offset}`);
      // Bodies are stored after each answer: give the last transaction its turn.
      await new Promise((r) => setTimeout(r, 200));
      const sample = JSON.parse(await read(svc, `http://${host}/api/v1/posts?limit=20`)).data;
      const bytes = Math.round(sample.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0) / sample.length);
      targets.push({ name: `${dir}, entries of ~${bytes} B`, svc, call: () => read(svc, `http://${host}/api/v1/posts?limit=20&${bustingSort(++k % 65_536)}`) });
    }
  }
  await cpuRounds(targets, { rounds: Number(args.rounds), perBatch });
} finally {
  for (const t of targets) await t.svc.close();
  rmSync(tmp, { recursive: true, force: true });
}
