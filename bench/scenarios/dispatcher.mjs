/**
 * Scenario 5: the webhook dispatcher on its own (child on the server core) delivering to the
 * HTTPS receiver (child on the load core). Throughput with 50 webhooks subscribed, against raw
 * node:https POSTs of the same signed bodies; write→receipt latency of non-debounced events;
 * memory of 100,000 pending debounced windows (fresh child, --expose-gc).
 */
import { LOAD_CORE, startChild } from "../lib/procs.mjs";
import { row } from "../lib/table.mjs";
import { median } from "../lib/util.mjs";

export async function runDispatcher(ctx) {
  const receiver = await startChild("receiver", {}, { core: LOAD_CORE });
  const url = `https://127.0.0.1:${receiver.info.port}/hook`;
  const { ca } = receiver.info;
  const rows = [];
  try {
    const child = await startChild("dispatcher", {}, { nodeFlags: ctx.nodeFlagsFor("dispatcher") });
    try {
      const events = ctx.quick ? 40 : 200;
      const webhooks = 50;
      await child.call("throughput", { url, ca, webhooks, events: 20 }); // warm-up
      const runs = [];
      const raw = [];
      for (let round = 1; round <= ctx.runs; round++) {
        await receiver.call("reset");
        const t = await child.call("throughput", { url, ca, webhooks, events });
        const received = await receiver.call("waitFor", { target: t.expected, timeoutMs: 10_000 });
        runs.push({ ...t, received: received.count, latency: received.latency });
        raw.push(await child.call("rawThroughput", { url, ca, count: t.expected }));
        ctx.log(`  round ${round}/${ctx.runs}: ${Math.round(t.perSecond)} deliveries/s (${t.stats.delivered}/${t.expected} delivered, ${received.count} received); raw https ${Math.round(raw.at(-1).perSecond)}/s; CPU per delivery ${t.cpuPerDeliveryUs.toFixed(0)} µs vs raw ${raw.at(-1).cpuPerDeliveryUs.toFixed(0)} µs${t.errors.length ? `; errors: ${t.errors[0]}` : ""}`);
      }
      const perSecond = median(runs.map((r) => r.perSecond));
      rows.push(row({ scenario: "5 dispatcher", figure: `signed deliveries/s, ${webhooks} webhooks × ${events} events`, value: perSecond, unit: "/s", ref: median(raw.map((r) => r.perSecond)), refLabel: "raw https", target: "≥ 2,000/s", met: perSecond >= 2000, runs }));
      // CPU of the sending process per delivery: what the ratio means on a machine whose throughput moves.
      const cpu = median(runs.map((r) => r.cpuPerDeliveryUs));
      const rawCpu = median(raw.map((r) => r.cpuPerDeliveryUs));
      rows.push(row({ scenario: "5 dispatcher", figure: "sender CPU per delivery: dispatcher", value: cpu, unit: "µs" }));
      rows.push(row({ scenario: "5 dispatcher", figure: "sender CPU per delivery: raw node:https", value: rawCpu, unit: "µs" }));
      rows.push(row({ scenario: "5 dispatcher", figure: "dispatcher vs raw node:https, by sender CPU", value: cpu, unit: "µs", ref: rawCpu, refLabel: "raw", ratio: rawCpu / cpu, target: "≥ 90% of raw", met: rawCpu / cpu >= 0.9 }));
      rows.push(row({ scenario: "5 dispatcher", figure: "write→receipt p50 / p99 under that load", value: `${median(runs.map((r) => r.latency?.p50)).toFixed(0)} / ${median(runs.map((r) => r.latency?.p99)).toFixed(0)} ms` }));

      const lat = [];
      for (let round = 1; round <= ctx.runs; round++) {
        await receiver.call("reset");
        const n = ctx.quick ? 50 : 300;
        await child.call("latency", { url, ca, webhooks: 1, events: n, intervalMs: 5 });
        lat.push((await receiver.call("waitFor", { target: n, timeoutMs: 5000 })).latency);
      }
      rows.push(row({ scenario: "5 dispatcher", figure: "write→receipt p50 / p99, 1 webhook, 200 events/s", value: `${median(lat.map((l) => l?.p50)).toFixed(1)} / ${median(lat.map((l) => l?.p99)).toFixed(1)} ms`, runs: lat }));
    } finally {
      await child.stop();
    }

    const windows = ctx.quick ? 20_000 : 100_000;
    const mem = [];
    for (let round = 1; round <= (ctx.quick ? 1 : ctx.runs); round++) {
      const m = await startChild("dispatcher", {}, { nodeFlags: ["--expose-gc"] });
      try {
        mem.push(await m.call("memory", { windows }));
      } finally {
        await m.stop();
      }
    }
    const heap = median(mem.map((m) => m.heapDelta));
    const rss = median(mem.map((m) => m.rssDelta));
    const cold = median(mem.map((m) => m.coldRssDelta));
    const baseline = median(mem.map((m) => m.baselineRss));
    const per = heap / windows;
    rows.push(row({
      scenario: "5 dispatcher",
      figure: `memory, ${windows.toLocaleString()} pending debounced windows`,
      // RSS over the warmed-up process (baseline given); "from cold" also counts V8's young generation grown by the burst.
      value: `${(heap / 1e6).toFixed(1)} MB heap, ${(rss / 1e6).toFixed(1)} MB RSS; ${Math.round(per)} B/window (baseline ${(baseline / 1e6).toFixed(0)} MB RSS; ${(cold / 1e6).toFixed(1)} MB RSS from cold)`,
      target: "100,000 < 100 MB RSS",
      met: (rss * 100_000) / windows / 1e6 < 100,
      note: mem.some((m) => m.pending !== windows) ? `pending ${mem.map((m) => m.pending).join("/")} of ${windows} (dropped ${mem.map((m) => m.dropped).join("/")})` : "",
      runs: mem,
    }));
    return rows;
  } finally {
    await receiver.stop();
  }
}
