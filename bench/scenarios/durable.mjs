/**
 * Scenario 11: the dispatcher of a real service with durable delivery off (in memory, spec 6.6)
 * beside on (outbox table, `webhooks: { durable: true }`), same SQLite service child, same
 * writes: entry creates over HTTP (10 at a time) with 10 webhooks subscribed to content.created.
 * Figures: deliveries/s from the first write to the last receipt, write→receipt latency (the
 * entry carries `sent_at`, the runner's wall clock), and creates/s while delivering.
 */
import { join } from "node:path";
import { LOAD_CORE, startChild } from "../lib/procs.mjs";
import { row } from "../lib/table.mjs";
import { httpJson, median } from "../lib/util.mjs";
import { FIELDS, entryData } from "../lib/shapes.mjs";

const HOST = "durable.localhost";
const WEBHOOKS = 10;
const wallNow = () => performance.timeOrigin + performance.now();

export async function runDurable(ctx) {
  const receiver = await startChild("receiver", {}, { core: LOAD_CORE });
  const writes = ctx.quick ? 200 : 1000;
  const results = { off: [], on: [] };
  try {
    for (let round = 1; round <= ctx.runs; round++) {
      for (const mode of ["off", "on"]) {
        results[mode].push(await measure(ctx, receiver, mode, writes, round));
        const r = results[mode].at(-1);
        ctx.log(`  round ${round}/${ctx.runs} durable ${mode}: ${Math.round(r.perSecond)} deliveries/s, ${Math.round(r.createsPerSecond)} creates/s, p50 ${r.latency?.p50?.toFixed(0)} ms (${r.received}/${r.expected} received)`);
      }
    }
  } finally {
    await receiver.stop();
  }
  const med = (mode, pick) => median(results[mode].map(pick));
  const expected = writes * WEBHOOKS;
  const latency = (mode) => `${med(mode, (r) => r.latency?.p50).toFixed(0)} / ${med(mode, (r) => r.latency?.p99).toFixed(0)} ms`;
  return [
    row({ scenario: "11 durable", figure: `deliveries/s, durable on, ${WEBHOOKS} webhooks × ${writes} creates`, value: med("on", (r) => r.perSecond), unit: "/s", ref: med("off", (r) => r.perSecond), refLabel: "durable off", runs: results.on }),
    row({ scenario: "11 durable", figure: "write→receipt p50 / p99, durable on", value: `${latency("on")} (off: ${latency("off")})` }),
    row({ scenario: "11 durable", figure: "entry creates/s while delivering, durable on", value: med("on", (r) => r.createsPerSecond), unit: "req/s", ref: med("off", (r) => r.createsPerSecond), refLabel: "durable off" }),
    row({ scenario: "11 durable", figure: "deliveries received, durable on", value: Math.min(...results.on.map((r) => r.received)), ref: expected, refLabel: "expected", target: "all", met: results.on.every((r) => r.received >= expected) }),
  ];
}

async function measure(ctx, receiver, mode, writes, round) {
  const server = await startChild(
    "service",
    { dataDir: join(ctx.tmp, `durable-${mode}-${round}`), secretKey: ctx.secretKey, webhookCa: receiver.info.ca, durable: mode === "on", seed: { slug: "durable", hosts: [HOST], collections: [], owner: true } },
    { nodeFlags: ctx.nodeFlagsFor("durable") },
  );
  try {
    const { port } = server.info;
    const headers = { authorization: `Bearer ${server.info.seeded.tokens.owner}` };
    const api = (path, json) => httpJson(port, path, { method: "POST", host: HOST, headers, json });
    await api("/api/dashboard/collections", { name: "posts", access: "private", fields: [...FIELDS, { name: "sent_at", type: "number" }] });
    for (let i = 0; i < WEBHOOKS; i++) await api("/api/dashboard/webhooks", { url: `https://127.0.0.1:${receiver.info.port}/hook/${i}`, events: ["content.created"] });
    await receiver.call("reset");
    const start = wallNow();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < writes) {
          const i = next++;
          await api("/api/dashboard/collections/posts/entries", { ...entryData(i), sent_at: wallNow() });
        }
      }),
    );
    const wrote = wallNow();
    const expected = writes * WEBHOOKS;
    const got = await receiver.call("waitFor", { target: expected, timeoutMs: 60_000 });
    return {
      mode,
      expected,
      received: got.count,
      perSecond: got.count / ((wallNow() - start) / 1000),
      createsPerSecond: writes / ((wrote - start) / 1000),
      latency: got.latency,
    };
  } finally {
    await server.stop();
  }
}
