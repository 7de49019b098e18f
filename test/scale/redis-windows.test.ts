/**
 * The Redis window store (src/webhooks/redis-windows.ts): two dispatchers in one process, each with
 * its own factory (= its own instance id), sharing one Redis under a key prefix of this test.
 * Windows are cluster-wide: one delivery per window, carrying the last value, sent by the instance
 * that put it there.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "../../src/webhooks/dispatcher.js";
import { createRedisWindows } from "../../src/webhooks/redis-windows.js";
import type { Dispatcher, WebhookSource, WebhookTarget } from "../../src/webhooks/types.js";
import { REDIS_URL } from "../helpers/database.js";
import { CA, captureLogger, closedPort, contentEvent, entryId, sleep, sourceOf, startReceiver, target, type Receiver } from "../webhooks/helpers.js";

const COALESCE_MS = 200;

describe.runIf(REDIS_URL)("Redis window store", () => {
  const prefix = `contentsvc-test:${randomBytes(6).toString("hex")}:`;
  let redis: Redis;
  let receiver: Receiver;
  let open: Dispatcher[] = [];

  const instance = (hook: WebhookTarget, url = REDIS_URL!, source: WebhookSource = sourceOf(hook)) => {
    const logger = captureLogger();
    const d = createDispatcher({
      source,
      allowPrivateTargets: true,
      ca: CA,
      coalesceMs: COALESCE_MS,
      retryDelaysMs: [],
      logger,
      windows: createRedisWindows(url, { prefix }),
    });
    open.push(d);
    return Object.assign(d, { logger });
  };
  const titles = () => receiver.requests.map((r) => JSON.parse(r.raw.toString()).data.entry.title as string);
  const ownKeys = () => redis.keys(`${prefix}*`);

  beforeAll(async () => {
    redis = new Redis(REDIS_URL!);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(open.map((d) => d.close({ graceMs: 1000 })));
    open = [];
    receiver.requests.length = 0;
  });
  afterAll(async () => {
    const keys = await ownKeys();
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await receiver?.close();
  });

  it("two instances updating one entry within the window: ONE delivery, the last state, sent by the last writer", async () => {
    const hook = target(receiver.url(), { events: ["content.updated"] });
    const a = instance(hook);
    const b = instance(hook);
    a.emit(contentEvent("content.updated", entryId(1), { title: "from A" }));
    await sleep(50);
    b.emit(contentEvent("content.updated", entryId(1), { title: "from B" }));
    await receiver.waitFor(1, 3000);
    await sleep(COALESCE_MS * 2); // A's earlier timer has fired by now and stayed silent
    expect(titles()).toEqual(["from B"]);
    expect([a.stats().delivered, b.stats().delivered]).toEqual([0, 1]);
    // The owner closed its window: what stays is the short-lived "closed" marker, no token.
    const keys = await ownKeys();
    expect(keys).toHaveLength(1);
    expect(await redis.get(keys[0]!)).toBe("closed");
  });

  it("the window restarts on every event across instances: A, B, A → A sends A's second state", async () => {
    const hook = target(receiver.url(), { events: ["content.updated"] });
    const a = instance(hook);
    const b = instance(hook);
    a.emit(contentEvent("content.updated", entryId(2), { title: "A1" }));
    await sleep(120);
    b.emit(contentEvent("content.updated", entryId(2), { title: "B1" }));
    await sleep(120); // 240 ms after A1: a per-process window would have closed already
    a.emit(contentEvent("content.updated", entryId(2), { title: "A2" }));
    await receiver.waitFor(1, 3000);
    await sleep(COALESCE_MS * 2);
    expect(titles()).toEqual(["A2"]);
    expect([a.stats().delivered, b.stats().delivered]).toEqual([1, 0]);
  });

  it("different entries keep their own windows", async () => {
    const hook = target(receiver.url(), { events: ["content.updated"] });
    const a = instance(hook);
    const b = instance(hook);
    a.emit(contentEvent("content.updated", entryId(3), { title: "x" }));
    b.emit(contentEvent("content.updated", entryId(4), { title: "y" }));
    await receiver.waitFor(2, 3000);
    await sleep(COALESCE_MS);
    expect(titles().sort()).toEqual(["x", "y"]);
  });

  it("debounce_ms (scope webhook) is cluster-wide too", async () => {
    const hook = target(receiver.url(), { events: ["content.created"], debounceMs: 250, debounceScope: "webhook" });
    const a = instance(hook);
    const b = instance(hook);
    a.emit(contentEvent("content.created", entryId(5), { title: "first" }));
    await sleep(60);
    b.emit(contentEvent("content.created", entryId(6), { title: "second" }));
    await receiver.waitFor(1, 3000);
    await sleep(400);
    expect(titles()).toEqual(["second"]);
    expect(b.stats().delivered).toBe(1);
  });

  it("close() flushes only the windows this instance owns; the owner still sends once", async () => {
    const hook = target(receiver.url(), { events: ["content.updated"] });
    const a = instance(hook);
    const b = instance(hook);
    b.emit(contentEvent("content.updated", entryId(7), { title: "old on B" }));
    await sleep(30);
    a.emit(contentEvent("content.updated", entryId(7), { title: "new on A" }));
    await sleep(20);
    await b.close(); // B no longer owns the window: it must not send the stale state
    expect(receiver.requests).toHaveLength(0);
    await receiver.waitFor(1, 3000);
    await sleep(COALESCE_MS);
    expect(titles()).toEqual(["new on A"]);

    a.emit(contentEvent("content.updated", entryId(8), { title: "flushed" }));
    await sleep(20);
    await a.close(); // A owns it: close sends it now, not lost
    expect(titles()).toEqual(["new on A", "flushed"]);
  });

  it("without a reachable Redis, windows degrade to per instance: delivered, not lost", async () => {
    const hook = target(receiver.url(), { events: ["content.updated"] });
    const down = `redis://127.0.0.1:${await closedPort()}`;
    const a = instance(hook, down);
    a.emit(contentEvent("content.updated", entryId(9), { title: "anyway" }));
    await receiver.waitFor(1, 5000);
    expect(titles()).toEqual(["anyway"]);
    expect(a.logger.text()).toMatch(/failed on Redis/);
  });

  it("the last writer reads the webhook again when it sends: changed URL → the new URL once; deleted → nothing", async () => {
    const moved = await startReceiver();
    try {
      // One stored webhook both instances read, as two services on one database do.
      let stored: WebhookTarget | undefined = target(receiver.url(), { events: ["content.created"], debounceMs: 500 });
      const source: WebhookSource = {
        targetsFor: async () => (stored ? [stored] : []),
        current: async (_workspaceId, id) => (stored?.id === id ? stored : undefined),
      };
      const a = instance(stored, REDIS_URL, source);
      const b = instance(stored, REDIS_URL, source);
      a.emit(contentEvent("content.created", entryId(10), { title: "A" }));
      await sleep(50);
      b.emit(contentEvent("content.created", entryId(10), { title: "B" }));
      await sleep(50);
      stored = { ...stored, url: moved.url("/moved") };
      const [got] = await moved.waitFor(1, 3000);
      expect(JSON.parse(got!.raw.toString()).data.entry.title).toBe("B");
      await sleep(700);
      expect(moved.requests).toHaveLength(1);
      expect(receiver.requests).toHaveLength(0);

      a.emit(contentEvent("content.created", entryId(11), { title: "A2" }));
      await sleep(50);
      b.emit(contentEvent("content.created", entryId(11), { title: "B2" }));
      await sleep(50);
      stored = undefined;
      await sleep(900);
      expect(moved.requests).toHaveLength(1);
      expect(receiver.requests).toHaveLength(0);
      expect(b.stats().dropped).toBe(1);
      expect(b.logger.text()).toContain("webhook delivery dropped: the webhook was deleted");
    } finally {
      await moved.close();
    }
  });
});
