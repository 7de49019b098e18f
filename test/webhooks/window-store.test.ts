/**
 * The one fire path (src/webhooks/debounce.ts) over the window store interface
 * (src/webhooks/window-store.ts): what every store, present or future, relies on.
 */
import { describe, expect, it } from "vitest";
import { createDebounceWindows } from "../../src/webhooks/debounce.js";
import type { WindowStore } from "../../src/webhooks/types.js";
import { memoryWindowStore } from "../../src/webhooks/window-store.js";
import { captureLogger, createFakeClock, settle } from "./helpers.js";

/** Stores of two "instances" sharing one owner table, like Redis does across processes. */
function sharedStores(answerLater: boolean) {
  const owners = new Map<string, string>();
  const store = (name: string): WindowStore<string> => ({
    put: (key) => void owners.set(key, name),
    take(key) {
      const mine = owners.get(key) === name;
      if (mine) owners.delete(key);
      return answerLater ? Promise.resolve(mine) : mine;
    },
  });
  return { owners, a: store("a"), b: store("b") };
}

function rig(store: WindowStore<string>, clock = createFakeClock()) {
  const sent: string[] = [];
  const windows = createDebounceWindows(store, clock, (value) => sent.push(value), captureLogger());
  return { clock, sent, windows };
}

describe("debounce windows over a window store (spec 6.7.3)", () => {
  it("in memory: a window closes delayMs after the LAST touch and sends only the last value", () => {
    const { clock, sent, windows } = rig(memoryWindowStore<string>({ stage: "debounce", clock: createFakeClock(), logger: captureLogger() }));
    windows.touch("k", "v1", 1000);
    clock.advance(900);
    windows.touch("k", "v2", 1000);
    clock.advance(900);
    expect(sent).toEqual([]);
    expect(windows.has("k")).toBe(true);
    clock.advance(100);
    expect(sent).toEqual(["v2"]);
    expect(windows.has("k")).toBe(false);
    expect(clock.timers).toBe(0);
  });

  it("a lowered delay closes the window earlier; a burst keeps one timer", () => {
    const { clock, sent, windows } = rig(memoryWindowStore<string>({ stage: "debounce", clock: createFakeClock(), logger: captureLogger() }));
    for (let i = 0; i < 50; i++) windows.touch("k", `v${i}`, 60_000);
    expect(clock.timers).toBe(1);
    windows.touch("k", "short", 10);
    clock.advance(10);
    expect(sent).toEqual(["short"]);
    expect(clock.timers).toBe(0);
  });

  it("thousands of windows opening, extending and closing: each closes at its last touch + delay with its last value", () => {
    // Windows live in reused slots of growing arrays: a model of every window checks each tick.
    const { clock, sent, windows } = rig(memoryWindowStore<string>({ stage: "debounce", clock: createFakeClock(), logger: captureLogger() }));
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const model = new Map<string, { value: string; dueAt: number }>();
    for (let tick = 0; tick < 3000; tick++) {
      for (let t = random(4); t > 0; t--) {
        const key = `k${random(400)}`;
        const value = `${key}@${tick}.${t}`;
        const delay = 1 + random(300);
        windows.touch(key, value, delay);
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
      onA.windows.touch("k", "a1", 500);
      clock.advance(100);
      onB.windows.touch("k", "b1", 500);
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
    onA.windows.touch("x", "a-x", 500);
    onA.windows.touch("y", "a-y", 500);
    onB.windows.touch("y", "b-y", 500);
    expect(await onA.windows.drain()).toEqual(["a-x"]);
    expect(await onB.windows.drain()).toEqual(["b-y"]);
    expect(onA.sent).toEqual([]);
    expect(onB.sent).toEqual([]);
    expect(clock.timers).toBe(0);
  });
});
