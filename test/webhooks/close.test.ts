import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { createDispatcher } from "../../src/webhooks/index.js";
import { captureLogger, contentEvent, countingClock, entryId, settle, sleep, sourceOf, target, dispatcherRig } from "./helpers.js";

const { receiver, dispatcher } = dispatcherRig({ allowPrivateTargets: true });

/** Active handles and ref'd timers, as a sorted multiset. */
const resources = () => process.getActiveResourcesInfo().filter((r) => r !== "CloseReq").sort();

describe("close() (spec 6.6 Persistence)", () => {
  it("flushes, then leaves no timer and no socket behind", async () => {
    const r = await receiver((req, res) => res.writeHead(req.url === "/fail" ? 500 : 200).end());
    const before = resources();
    const clock = countingClock();
    const ok = target(r.url("/ok"), { id: "wh-ok" });
    const debounced = target(r.url("/ok"), { id: "wh-debounced", debounceMs: 3_600_000 });
    const failing = target(r.url("/fail"), { id: "wh-fail" });
    const d = dispatcher({ source: sourceOf(ok, debounced), clock, retryDelaysMs: [5000] });
    d.emit(contentEvent("content.created", entryId(1)));
    d.emit(contentEvent("content.updated", entryId(2)));
    void d.deliverNow(failing, contentEvent("content.created"), { retries: true });
    await r.waitFor(2);
    await vi.waitFor(() => expect(d.stats().inFlight).toBe(0));
    expect(clock.live.size).toBeGreaterThanOrEqual(3); // coalescing window, debounce window, retry wait
    await d.close();
    expect(clock.live.size).toBe(0);
    expect(d.stats()).toMatchObject({ pending: 0, inFlight: 0 });
    // Sockets: exactly the baseline again (the server side closes a moment after the client).
    // Timers: the counting clock proves ours are gone; the ref'd real ones (attempt deadlines,
    // grace) may not outnumber the baseline, which holds vitest's own timer. Polled by hand,
    // since vi.waitFor's timer would count.
    const handles = (list: string[]) => list.filter((x) => x !== "Timeout");
    const timers = (list: string[]) => list.filter((x) => x === "Timeout").length;
    let after = resources();
    for (let i = 0; i < 100 && handles(after).join() !== handles(before).join(); i++) {
      await sleep(20);
      after = resources();
    }
    expect(handles(after)).toEqual(handles(before));
    expect(timers(after)).toBeLessThanOrEqual(timers(before));
  });

  it("drops deliveries waiting to retry and logs them as lost", async () => {
    const r = await receiver((_req, res) => res.writeHead(503).end());
    const t = target(r.url());
    const d = dispatcher({ source: sourceOf(t), retryDelaysMs: [5000, 5000] });
    const result = d.deliverNow(t, contentEvent("content.created"), { retries: true });
    d.emit(contentEvent("content.deleted"));
    await r.waitFor(2);
    await vi.waitFor(() => expect(d.stats()).toMatchObject({ inFlight: 0, pending: 2 }));
    const t0 = Date.now();
    await d.close();
    expect(Date.now() - t0).toBeLessThan(500);
    expect(await result).toMatchObject({ ok: false, status: 503, attempts: 1 });
    expect((await result).error).toContain("dispatcher closed during retry wait");
    expect(d.stats()).toMatchObject({ dropped: 2, pending: 0 });
    expect(d.logger.lines.filter((l) => l.startsWith("warn") && l.includes("lost"))).toHaveLength(2);
    expect(r.requests).toHaveLength(2);
  });

  it("gives in-flight deliveries the grace period, then abandons them", async () => {
    const r = await receiver(() => {}); // hangs
    const d = dispatcher({ source: sourceOf(target(r.url())) });
    d.emit(contentEvent("content.created"));
    await r.waitFor(1);
    expect(d.stats().inFlight).toBe(1);
    const t0 = Date.now();
    await d.close({ graceMs: 200 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(d.stats()).toMatchObject({ inFlight: 0, dropped: 1 });
    expect(d.logger.text()).toContain("dispatcher closed before the delivery finished");
  });

  it("waits for an in-flight delivery that finishes within the grace period", async () => {
    const r = await receiver((_req, res) => setTimeout(() => res.end(), 200));
    const d = dispatcher({ source: sourceOf(target(r.url())) });
    d.emit(contentEvent("content.created"));
    await r.waitFor(1);
    await d.close({ graceMs: 2000 });
    expect(d.stats()).toMatchObject({ delivered: 1, dropped: 0 });
  });

  it("refuses work after close", async () => {
    const r = await receiver();
    const d = dispatcher({ source: sourceOf(target(r.url())) });
    await d.close();
    d.emit(contentEvent("content.created"));
    expect(await d.deliverNow(target(r.url()), contentEvent("content.created"))).toMatchObject({ ok: false, error: "dispatcher closed" });
    await sleep(100);
    expect(r.requests).toHaveLength(0);
    expect(d.stats().dropped).toBe(1);
  });
});

describe("bounds", () => {
  it("holds 100,000 pending debounced deliveries in well under 200 MB", async () => {
    // 10.0.0.1 is refused before any network I/O, so the flush on close costs no sockets.
    const t = target("https://10.0.0.1/hook", { debounceMs: 3_600_000 });
    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    const d = createDispatcher({ source: sourceOf(t), logger: quiet, maxPending: 200_000 });
    const gc = exposeGc();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    // The events are counted too: a window holds the event itself (not a serialized body per target).
    for (let i = 0; i < 100_000; i++) d.emit(contentEvent("content.created", entryId(i)));
    await vi.waitFor(() => expect(d.stats().pending).toBe(100_000));
    await settle();
    gc();
    const usedMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    expect(usedMb).toBeLessThan(200);
    await d.close();
    expect(d.stats()).toMatchObject({ pending: 0, dropped: 100_000 });
    // Opening the windows takes well under a second; flushing 100,000 of them through the send
    // path on close takes seconds of CPU, more on a loaded machine.
  }, 60_000);

  it("a source error is logged and the event dropped; emit never throws", async () => {
    const logger = captureLogger();
    const d = createDispatcher({ source: { targetsFor: () => Promise.reject(new Error("db down")) }, logger });
    expect(() => d.emit(contentEvent("content.created"))).not.toThrow();
    expect(() => d.emit({} as never)).not.toThrow();
    await settle();
    expect(d.stats().dropped).toBe(2);
    expect(logger.text()).toContain("db down");
    await d.close();
  });

  it("validates options at creation, naming the option", () => {
    expect(() => createDispatcher({} as never)).toThrow(/option source/);
    expect(() => createDispatcher({ source: sourceOf(), timeoutMs: 0 })).toThrow(/option timeoutMs/);
    expect(() => createDispatcher({ source: sourceOf(), maxPerHost: 0 })).toThrow(/option maxPerHost/);
    expect(() => createDispatcher({ source: sourceOf(), retryDelaysMs: [-1] })).toThrow(/option retryDelaysMs/);
  });
});

/** A handle on V8's collector without a command-line flag, so the heap delta is what is retained. */
function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
