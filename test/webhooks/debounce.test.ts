import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher, type DispatcherOptions, type WebhookTarget } from "../../src/webhooks/index.js";
import { CA, captureLogger, contentEvent, createFakeClock, entryId, settle, sleep, sourceOf, startReceiver, target, type Receiver } from "./helpers.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(overrides: Partial<WebhookTarget> = {}, options: Partial<DispatcherOptions> = {}) {
  const r: Receiver = await startReceiver();
  cleanup.push(() => r.close());
  const logger = captureLogger();
  const source = sourceOf(target(r.url(), overrides));
  const d = createDispatcher({ source, ca: CA, allowPrivateTargets: true, logger, ...options });
  cleanup.push(() => d.close({ graceMs: 100 }));
  return { r, d, logger, source };
}

const bodyOf = (raw: Buffer) => JSON.parse(raw.toString("utf8"));
const E1 = entryId(1);
const E2 = entryId(2);
const E3 = entryId(3);

describe("always-on coalescing of content.updated (spec 6.7.1, real clock)", () => {
  it("three rapid updates of one entry: one delivery with the latest state, 0.5 s after the last", async () => {
    const { r, d, source } = await setup();
    d.emit(contentEvent("content.updated", E1, { title: "v1" }));
    await sleep(50);
    d.emit(contentEvent("content.updated", E1, { title: "v2" }));
    await sleep(50);
    d.emit(contentEvent("content.updated", E1, { title: "v3" }));
    const last = Date.now();
    const [req] = await r.waitFor(1, 2000);
    // Trailing window: 0.5 s after the LAST update.
    expect(req.at - last).toBeGreaterThanOrEqual(480);
    expect(req.at - last).toBeLessThan(900);
    expect(bodyOf(req.raw).data.entry.title).toBe("v3");
    await sleep(300);
    expect(r.requests).toHaveLength(1);
    expect(source.calls).toBe(1);
  });

  it("updates of two different entries: two deliveries", async () => {
    const { r, d } = await setup();
    d.emit(contentEvent("content.updated", E1, { title: "a" }));
    d.emit(contentEvent("content.updated", E2, { title: "b" }));
    d.emit(contentEvent("content.updated", E1, { title: "a2" }));
    const reqs = await r.waitFor(2, 2000);
    await sleep(200);
    expect(r.requests).toHaveLength(2);
    const byEntry = Object.fromEntries(reqs.map((q) => [bodyOf(q.raw).data.entry.id, bodyOf(q.raw).data.entry.title]));
    expect(byEntry).toEqual({ [E1]: "a2", [E2]: "b" });
  });

  it("created, published and deleted are neither coalesced nor delayed", async () => {
    const { r, d } = await setup();
    const t0 = Date.now();
    d.emit(contentEvent("content.created", E1));
    d.emit(contentEvent("content.published", E1));
    d.emit(contentEvent("content.created", E1));
    d.emit(contentEvent("content.deleted", E1));
    const reqs = await r.waitFor(4, 2000);
    expect(Math.max(...reqs.map((q) => q.at)) - t0).toBeLessThan(400);
    expect(reqs.map((q) => bodyOf(q.raw).event).sort()).toEqual(["content.created", "content.created", "content.deleted", "content.published"]);
  });
});

describe("per-webhook debounce_ms (spec 6.7.2-4), real clock", () => {
  it("scope entry: collapses per (webhook, event, entry), exactly debounce_ms after the last event", async () => {
    const { r, d } = await setup({ debounceMs: 300, debounceScope: "entry" });
    d.emit(contentEvent("content.created", E1, { title: "e1-a" }));
    d.emit(contentEvent("content.created", E2, { title: "e2-a" }));
    await sleep(100);
    d.emit(contentEvent("content.created", E1, { title: "e1-b" }));
    const last = Date.now();
    const reqs = await r.waitFor(2, 2000);
    await sleep(200);
    expect(r.requests).toHaveLength(2);
    const e1 = reqs.find((q) => bodyOf(q.raw).data.entry.id === E1)!;
    expect(bodyOf(e1.raw).data.entry.title).toBe("e1-b");
    expect(e1.at - last).toBeGreaterThanOrEqual(280);
    expect(e1.at - last).toBeLessThan(600);
  });

  it("scope webhook: collapses every entry of one event name into one delivery", async () => {
    const { r, d } = await setup({ debounceMs: 300, debounceScope: "webhook" });
    d.emit(contentEvent("content.created", E1));
    d.emit(contentEvent("content.created", E2));
    d.emit(contentEvent("content.published", E1));
    d.emit(contentEvent("content.created", E3, { title: "last" }));
    const reqs = await r.waitFor(2, 2000);
    await sleep(200);
    expect(r.requests).toHaveLength(2);
    const created = reqs.find((q) => bodyOf(q.raw).event === "content.created")!;
    expect(bodyOf(created.raw).data.entry).toMatchObject({ id: E3, title: "last" });
  });

  it("content.updated waits debounce_ms + 0.5 s after the last update", async () => {
    const { r, d } = await setup({ debounceMs: 300 });
    d.emit(contentEvent("content.updated", E1, { title: "x" }));
    d.emit(contentEvent("content.updated", E1, { title: "y" }));
    const last = Date.now();
    const [req] = await r.waitFor(1, 3000);
    expect(req.at - last).toBeGreaterThanOrEqual(780);
    expect(req.at - last).toBeLessThan(1200);
    expect(bodyOf(req.raw).data.entry.title).toBe("y");
  });
});

describe("debounce with an injected clock", () => {
  it("scope entry, one hour: every event restarts the window; replaced payloads are never sent", async () => {
    const clock = createFakeClock();
    const { r, d } = await setup({ debounceMs: 3_600_000, debounceScope: "entry" }, { clock });
    d.emit(contentEvent("content.published", E1, { title: "p1" }));
    await settle();
    clock.advance(1_800_000);
    d.emit(contentEvent("content.published", E1, { title: "p2" }));
    await settle();
    clock.advance(1_800_000); // one hour after the first: still waiting
    await sleep(100);
    expect(r.requests).toHaveLength(0);
    expect(d.stats().pending).toBe(1);
    clock.advance(1_799_999);
    await sleep(50);
    expect(r.requests).toHaveLength(0);
    clock.advance(1);
    const [req] = await r.waitFor(1);
    expect(bodyOf(req.raw).data.entry.title).toBe("p2");
    // spec 6.1: a debounced delivery carries its send time.
    expect(bodyOf(req.raw).timestamp).toBe(new Date(clock.now()).toISOString());
    expect(clock.timers).toBe(0);
  });

  it("scope webhook: one window per event name; updated fires at debounce_ms + 500", async () => {
    const clock = createFakeClock();
    const { r, d } = await setup({ debounceMs: 60_000, debounceScope: "webhook" }, { clock });
    d.emit(contentEvent("content.updated", E1, { title: "u1" }));
    d.emit(contentEvent("content.updated", E2, { title: "u2" }));
    d.emit(contentEvent("content.created", E3, { title: "c3" }));
    await settle();
    clock.advance(500); // coalescing closes: both updates enter the webhook window
    await settle();
    clock.advance(59_500); // created: exactly debounce_ms
    const [created] = await r.waitFor(1);
    expect(bodyOf(created.raw).event).toBe("content.created");
    clock.advance(499);
    await sleep(100);
    expect(r.requests).toHaveLength(1);
    clock.advance(1); // updated: debounce_ms + 500
    const reqs = await r.waitFor(2);
    expect(bodyOf(reqs[1].raw).event).toBe("content.updated");
    expect(["u1", "u2"]).toContain(bodyOf(reqs[1].raw).data.entry.title);
    await sleep(100);
    expect(r.requests).toHaveLength(2);
  });

  it("with debounce_ms 0, events other than updated go out without any timer", async () => {
    const clock = createFakeClock();
    const { r, d } = await setup({}, { clock });
    d.emit(contentEvent("content.unpublished", E1));
    await r.waitFor(1);
    d.emit(contentEvent("content.updated", E1));
    await settle();
    expect(clock.timers).toBe(1); // only the coalescing window
  });
});

describe("flush, close and the pending cap", () => {
  it("close() sends debounced windows immediately", async () => {
    const { r, d } = await setup({ debounceMs: 3_600_000 });
    d.emit(contentEvent("content.created", E1, { title: "pending" }));
    d.emit(contentEvent("content.updated", E2, { title: "updated" }));
    await settle();
    expect(d.stats().pending).toBe(2);
    const t0 = Date.now();
    await d.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r.requests).toHaveLength(2);
    expect(r.requests.map((q) => bodyOf(q.raw).data.entry.title).sort()).toEqual(["pending", "updated"]);
    expect(d.stats()).toMatchObject({ pending: 0, inFlight: 0, delivered: 2 });
  });

  it("flush() sends every pending window now", async () => {
    const { r, d } = await setup({ debounceMs: 3_600_000, debounceScope: "webhook" });
    d.emit(contentEvent("content.created", E1));
    d.emit(contentEvent("content.created", E2, { title: "newest" }));
    await d.flush();
    const [req] = await r.waitFor(1);
    expect(bodyOf(req.raw).data.entry.title).toBe("newest");
    expect(d.stats().pending).toBe(0);
  });

  it("over maxPending, new windows are dropped and logged", async () => {
    const { d, logger } = await setup({ debounceMs: 3_600_000 }, { maxPending: 3 });
    for (let i = 1; i <= 5; i++) {
      d.emit(contentEvent("content.created", entryId(i)));
      await settle();
    }
    expect(d.stats()).toMatchObject({ pending: 3, dropped: 2 });
    expect(logger.lines.filter((l) => l.startsWith("warn") && l.includes("pending"))).toHaveLength(1);
  });
});
