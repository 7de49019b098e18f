#!/usr/bin/env node
/**
 * Sender CPU per webhook delivery (µs of `process.cpuUsage()` per delivery) for builds of the
 * dispatcher side by side, each round also sending the same signed POSTs through plain
 * node:https (8 keep-alive sockets, every request handed to the agent at once): the ratio that
 * still means something on a machine whose throughput moves. Runs in this process on the server
 * core; the HTTPS receiver is a child on the load core. 50 webhooks × 200 content.created events
 * per build and round, as scenario 5.
 *
 *   node bench/tools/dispatcher-cpu.mjs [--rounds 7] <dist dir> [<dist dir>…]
 *
 * A dist dir is a copy of dist/ inside the repository (e.g. .tmp/dist-before) or dist itself.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { contentCreated, cpuSince, deliveryTargets, sendRaw } from "../lib/deliveries.mjs";
import { LOAD_CORE, SERVER_CORE, canPin, startChild } from "../lib/procs.mjs";
import { median } from "../lib/util.mjs";

const { values, positionals } = parseArgs({ options: { rounds: { type: "string", default: "7" } }, allowPositionals: true });
const dists = positionals.length ? positionals : ["dist"];
const rounds = Number(values.rounds);
if (canPin) execFileSync("taskset", ["-p", "-c", String(SERVER_CORE), String(process.pid)], { stdio: "ignore" });

const builds = [];
for (const dir of dists) builds.push({ dir, ...(await import(pathToFileURL(resolve(dir, "webhooks.mjs")).href)) });
const receiver = await startChild("receiver", {}, { core: LOAD_CORE });
const url = `https://127.0.0.1:${receiver.info.port}/hook`;
const { ca } = receiver.info;
const WORKSPACE = randomUUID();
const WEBHOOKS = 50;
const EVENTS = 200;

const targets = deliveryTargets(WORKSPACE, WEBHOOKS, url);
const logger = { info() {}, debug() {}, warn: console.warn, error: console.error };

async function dispatcher({ createDispatcher }, events) {
  const d = createDispatcher({ source: { targetsFor: async () => targets }, allowPrivateTargets: true, ca, logger });
  const start = process.cpuUsage();
  for (let i = 0; i < events; i++) d.emit(contentCreated(WORKSPACE, i));
  for (;;) {
    const s = d.stats();
    if (s.delivered + s.failed + s.dropped >= events * WEBHOOKS) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  const used = cpuSince(start);
  await d.close({ graceMs: 100 });
  return used / (events * WEBHOOKS);
}

const raw = async (count) => (await sendRaw({ workspaceId: WORKSPACE, url, ca, count })).cpuPerDeliveryUs;

try {
  for (const b of builds) await dispatcher(b, 20); // warm-up
  await raw(1000);
  const results = builds.map(() => ({ us: [], ratio: [] }));
  for (let round = 1; round <= rounds; round++) {
    const line = [];
    for (const [i, b] of builds.entries()) {
      const d = await dispatcher(b, EVENTS);
      const r = await raw(EVENTS * WEBHOOKS);
      results[i].us.push(d);
      results[i].ratio.push(r / d);
      line.push(`${b.dir} ${d.toFixed(0)} µs (raw ${r.toFixed(0)} µs)`);
    }
    console.log(`round ${round}/${rounds}: ${line.join("; ")}`);
  }
  for (const [i, b] of builds.entries()) {
    console.log(`${b.dir}: ${median(results[i].us).toFixed(1)} µs per delivery; raw node:https / dispatcher, median of the rounds' ratios: ${(median(results[i].ratio) * 100).toFixed(1)} %`);
  }
} finally {
  await receiver.stop();
}
