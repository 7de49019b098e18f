/**
 * Scenario 6: `verifySignature` (built `contentsvc/signature`) ops/s against a raw node:crypto
 * createHmac + timingSafeEqual loop and against @octokit/webhooks-methods `verify`, on the same
 * string payloads and headers. Runs in the runner process (load core): no server involved.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { row } from "../lib/table.mjs";
import { median } from "../lib/util.mjs";
import { referenceItems } from "../lib/shapes.mjs";
import { importPackage } from "../lib/pkg.mjs";

const { verifySignature } = await importPackage("/signature");

const SECRET = "whsec_5f2b3c1d9e8a7b6c5d4e3f2a1b0c9d8e";

function payload(items) {
  return JSON.stringify({ event: "content.updated", timestamp: new Date().toISOString(), data: { collection: "posts", entry: referenceItems(items) } });
}

const impls = {
  raw: (body, header) => timingSafeEqual(createHmac("sha256", SECRET).update(body).digest(), Buffer.from(header.slice(7), "hex")),
  verifySignature: (body, header) => verifySignature(body, header, SECRET),
  octokit: (body, header) => octokitVerify(SECRET, body, header),
};

/** ops/s of `fn` for about `ms` milliseconds, in batches of 500 awaited calls. */
async function opsPerSecond(fn, body, header, ms) {
  let ops = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 500; i++) if ((await fn(body, header)) !== true) throw new Error("verification failed in the bench");
    ops += 500;
    elapsed = performance.now() - t0;
  } while (elapsed < ms);
  return (ops / elapsed) * 1000;
}

export async function runSignature(ctx) {
  const ms = ctx.quick ? 200 : 500;
  const rows = [];
  for (const [label, items] of [["~1 KB body", 3], ["~16 KB body", 50]]) {
    const body = payload(items);
    const header = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
    const runs = { raw: [], verifySignature: [], octokit: [] };
    for (const [name, fn] of Object.entries(impls)) await opsPerSecond(fn, body, header, 100); // warm-up
    for (let round = 0; round < ctx.runs; round++) {
      for (const [name, fn] of Object.entries(impls)) runs[name].push(await opsPerSecond(fn, body, header, ms));
    }
    const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
    ctx.log(`  ${label} (${body.length} B): raw ${Math.round(m.raw)}, verifySignature ${Math.round(m.verifySignature)}, octokit ${Math.round(m.octokit)} ops/s`);
    rows.push(row({ scenario: "6 signature", figure: `verifySignature, ${label}`, value: m.verifySignature, unit: "ops/s", ref: m.raw, refLabel: "raw HMAC", target: "within 20% of raw", met: m.verifySignature / m.raw >= 0.8, runs: runs.verifySignature }));
    rows.push(row({ scenario: "6 signature", figure: `@octokit/webhooks-methods verify, ${label}`, value: m.octokit, unit: "ops/s", ref: m.raw, refLabel: "raw HMAC", runs: runs.octokit }));
  }
  return rows;
}
