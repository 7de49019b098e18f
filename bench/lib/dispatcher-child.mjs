/**
 * Scenario 5 in a child pinned to the server core: `createDispatcher` from the built
 * `contentsvc/webhooks`, with a WebhookSource returning N targets, delivering to the HTTPS
 * receiver child. Commands: throughput, latency, memory (run memory with --expose-gc).
 */
import { randomUUID } from "node:crypto";
import { contentCreated, cpuSince, deliveryTargets, sendRaw } from "./deliveries.mjs";
import { importPackage } from "./pkg.mjs";
import { sleep } from "./util.mjs";

const { createDispatcher } = await importPackage("/webhooks");
const WORKSPACE = randomUUID();
const targets = (n, url, debounceMs) => deliveryTargets(WORKSPACE, n, url, debounceMs);
const event = (i) => contentCreated(WORKSPACE, i);

function dispatcherFor(list, ca) {
  const errors = [];
  const logger = { info() {}, debug() {}, warn: (...a) => errors.length < 5 && errors.push(a.map(String).join(" ")), error: (...a) => errors.length < 5 && errors.push(a.map(String).join(" ")) };
  const dispatcher = createDispatcher({ source: { targetsFor: async () => list }, allowPrivateTargets: true, ca, logger });
  return { dispatcher, errors };
}

async function settle(dispatcher, expected, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = dispatcher.stats();
    if (s.delivered + s.failed + s.dropped >= expected || Date.now() > deadline) return s;
    await sleep(2);
  }
}

/** Memory after a full GC and a short settle (so freed pages are given back before `rss` is read). */
const mb = async () => {
  globalThis.gc?.();
  globalThis.gc?.();
  await sleep(100);
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
};

export async function start() {
  return {
    info: { gc: typeof globalThis.gc === "function" },
    commands: {
      /** `events` content.created events fanned out to `webhooks` targets; deliveries/s as the dispatcher saw them. */
      async throughput({ url, ca, webhooks = 50, events = 200, timeoutMs = 60_000 }) {
        const { dispatcher, errors } = dispatcherFor(targets(webhooks, url), ca);
        const expected = webhooks * events;
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < events; i++) dispatcher.emit(event(i));
        const stats = await settle(dispatcher, expected, timeoutMs);
        const elapsedMs = performance.now() - t0;
        const cpuUs = cpuSince(cpu0);
        await dispatcher.close({ graceMs: 1000 });
        return { expected, elapsedMs, perSecond: (stats.delivered / elapsedMs) * 1000, cpuPerDeliveryUs: cpuUs / Math.max(1, stats.delivered), stats, errors };
      },
      /**
       * The reference: the same signed POSTs straight through node:https (keep-alive agent with the
       * dispatcher's default of 8 sockets per host), no matching, queue or retries.
       */
      async rawThroughput({ url, ca, count = 10_000, sockets = 8 }) {
        return sendRaw({ workspaceId: WORKSPACE, url, ca, count, sockets });
      },
      /** Spaced events to `webhooks` targets: latency write→receipt is measured by the receiver. */
      async latency({ url, ca, webhooks = 1, events = 300, intervalMs = 5, timeoutMs = 30_000 }) {
        const { dispatcher, errors } = dispatcherFor(targets(webhooks, url), ca);
        for (let i = 0; i < events; i++) {
          dispatcher.emit(event(i));
          await sleep(intervalMs);
        }
        const stats = await settle(dispatcher, webhooks * events, timeoutMs);
        await dispatcher.close({ graceMs: 1000 });
        return { stats, errors };
      },
      /**
       * Memory of `windows` pending debounced deliveries (distinct entries, one 60 s window each).
       * Events are made and emitted `perTurn` at a time, then let go, as a server lets a write's
       * event go once it has answered: a single synchronous loop would keep all of them alive at
       * once (the harness's objects, not the service's) and leave that peak in the RSS.
       * `heapDelta` counts the JS heap and external memory (Buffers), so neither can hide.
       * The baseline is taken after the same burst of events made, serialized and let go without
       * any window (a server that has served writes): V8 grows its young generation (~25 MB) under
       * such a burst and gives it back only after ~25 s idle, which is not what windows hold.
       * `coldRssDelta` is the delta from the process before that warm-up.
       */
      async memory({ windows = 100_000, perTurn = 100, url = "https://127.0.0.1:9/unused" }) {
        const list = targets(1, url, 60_000);
        const { dispatcher } = dispatcherFor(list, undefined);
        await sleep(50);
        const cold = await mb();
        let sink = 0;
        for (let i = 0; i < windows; i += perTurn) {
          for (let j = i; j < Math.min(windows, i + perTurn); j++) sink += JSON.stringify(event(j)).length;
          await new Promise(setImmediate);
        }
        const before = await mb();
        for (let i = 0; i < windows; i += perTurn) {
          for (let j = i; j < Math.min(windows, i + perTurn); j++) dispatcher.emit(event(j));
          await new Promise(setImmediate);
        }
        for (let i = 0; i < 2000 && dispatcher.stats().pending < windows; i++) await sleep(5);
        await sleep(50); // lookups settle into windows
        const after = await mb();
        const stats = dispatcher.stats();
        const heapDelta = after.heapUsed + after.external - (before.heapUsed + before.external);
        return {
          windows,
          perTurn,
          pending: stats.pending,
          dropped: stats.dropped,
          coldRss: cold.rss,
          coldRssDelta: after.rss - cold.rss,
          warmUpBytes: sink,
          baselineRss: before.rss,
          baselineHeap: before.heapUsed,
          rss: after.rss,
          rssDelta: after.rss - before.rss,
          heapDelta,
          externalDelta: after.external - before.external,
          bytesPerWindow: heapDelta / windows,
          gc: typeof globalThis.gc === "function",
        };
      },
    },
    // No close of the memory dispatcher: flushing 100,000 windows at exit is not the point.
  };
}
