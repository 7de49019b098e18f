/**
 * The local timers of the memory and Redis window stores (src/webhooks/timed-windows.ts) over
 * their claims: the heap, re-arming, and who sends a window that closed. The spec's rules for
 * every store are in the conformance suite (window-store-conformance.ts).
 */
import { describe, expect, it } from "vitest";
import { createTimedWindows, type WindowClaims } from "../../src/webhooks/timed-windows.js";
import type { WindowCodec } from "../../src/webhooks/window-store.js";
import { captureLogger, createFakeClock, settle } from "./helpers.js";

const memoryClaims: WindowClaims = { put() {}, take: () => true };
const codec: WindowCodec<string> = { encode: (payload) => ({ workspaceId: "ws", event: "content.updated", payload }), decode: (item) => item.payload };

/** Stores of two "instances" sharing one owner table, like Redis does across processes. */
function sharedStores(answerLater: boolean) {
  const owners = new Map<string, string>();
  const store = (name: string): WindowClaims => ({
    put: (key) => void owners.set(key, name),
    take(key) {
      const mine = owners.get(key) === name;
      if (mine) owners.delete(key);
      return answerLater ? Promise.resolve(mine) : mine;
    },
  });
  return { owners, a: store("a"), b: store("b") };
}

function rig(claims: WindowClaims, clock = createFakeClock()) {
  const sent: string[] = [];
  const windows = createTimedWindows(claims, { stage: "debounce", clock, logger: captureLogger(), codec, onClose: (value) => void sent.push(value) });
  return { clock, sent, windows };
}

describe("timed windows over their claims (spec 6.7.3)", () => {
  it("in memory: a window closes delayMs after the LAST touch and sends only the last value", () => {
    const { clock, sent, windows } = rig(memoryClaims);
    windows.put("k", "v1", 1000);
    clock.advance(900);
    windows.put("k", "v2", 1000);
    clock.advance(900);
    expect(sent).toEqual([]);
    expect(windows.has("k")).toBe(true);
    clock.advance(100);
    expect(sent).toEqual(["v2"]);
    expect(windows.has("k")).toBe(false);
    expect(clock.timers).toBe(0);
  });

  it("an onClose that throws or rejects is logged; the other windows still close", async () => {
    const clock = createFakeClock();
    const logger = captureLogger();
    const sent: string[] = [];
    const onClose = (value: string): void | Promise<void> => {
      if (value === "throws") throw new Error("sync failure");
      if (value === "rejects") return Promise.reject(new Error("async failure"));
      sent.push(value);
    };
    const windows = createTimedWindows(memoryClaims, { stage: "debounce", clock, logger, codec, onClose });
    windows.put("a", "throws", 100);
    windows.put("b", "rejects", 100);
    windows.put("c", "ok", 100);
    expect(() => clock.advance(100)).not.toThrow();
    await settle();
    expect(sent).toEqual(["ok"]);
    expect(logger.lines.filter((l) => l.includes("webhook window close failed"))).toHaveLength(2);
    expect(logger.text()).toMatch(/sync failure[\s\S]*async failure/);
  });

  it("a lowered delay closes the window earlier; a burst keeps one timer", () => {
    const { clock, sent, windows } = rig(memoryClaims);
    for (let i = 0; i < 50; i++) windows.put("k", `v${i}`, 60_000);
    expect(clock.timers).toBe(1);
    windows.put("k", "short", 10);
    clock.advance(10);
    expect(sent).toEqual(["short"]);
    expect(clock.timers).toBe(0);
  });

  it("thousands of windows opening, extending and closing: each closes at its last touch + delay with its last value", () => {
    // Windows live in reused slots of growing arrays: a model of every window checks each tick.
    const { clock, sent, windows } = rig(memoryClaims);
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const model = new Map<string, { value: string; dueAt: number }>();
    for (let tick = 0; tick < 3000; tick++) {
      for (let t = random(4); t > 0; t--) {
        const key = `k${random(400)}`;
        const value = `${key}@${tick}.${t}`;
        const delay = 1 + random(300);
        windows.put(key, value, delay);
        model.set(key, { value, dueAt: clock.now() + delay });
      }
      sent.length = 0;
      clock.advance(1);
      const due = [...model].filter(([, w]) => w.dueAt <= clock.now());
      for (const [key] of due) model.delete(key);
      expect(sent.toSorted()).toEqual(due.map(([, w]) => w.value).toSorted());
      expect(windows.size).toBe(model.size);
    }
    clock.advance(1000);
    expect(windows.size).toBe(0);
    expect(clock.timers).toBe(0);
  });

  for (const later of [false, true]) {
    it(`shared store (${later ? "async" : "sync"} answers): only the instance that put the last value sends`, async () => {
      const clock = createFakeClock();
      const { owners, a, b } = sharedStores(later);
      const onA = rig(a, clock);
      const onB = rig(b, clock);
      onA.windows.put("k", "a1", 500);
      clock.advance(100);
      onB.windows.put("k", "b1", 500);
      clock.advance(450);
      await settle();
      // A's timer ran out first, but B owns the window now.
      expect(onA.sent).toEqual([]);
      expect(onA.windows.size).toBe(0);
      clock.advance(50);
      await settle();
      expect(onB.sent).toEqual(["b1"]);
      expect(owners.size).toBe(0);
    });
  }

  it("drain returns only the values this instance owns, without sending them", async () => {
    const clock = createFakeClock();
    const { a, b } = sharedStores(true);
    const onA = rig(a, clock);
    const onB = rig(b, clock);
    onA.windows.put("x", "a-x", 500);
    onA.windows.put("y", "a-y", 500);
    onB.windows.put("y", "b-y", 500);
    expect(await onA.windows.drain()).toEqual(["a-x"]);
    expect(await onB.windows.drain()).toEqual(["b-y"]);
    expect(onA.sent).toEqual([]);
    expect(onB.sent).toEqual([]);
    expect(clock.timers).toBe(0);
  });
});
