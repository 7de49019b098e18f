/**
 * The Redis window store when Redis loses a window's key (a restart without persistence, an
 * eviction, FLUSHALL): the window is still sent, with a warning, never dropped by every instance.
 * Needs SVC_TEST_REDIS_URL.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher, type WebhookSource } from "../../src/webhooks/index.js";
import { createRedisWindows } from "../../src/webhooks/redis-windows.js";
import { REDIS_URL } from "../helpers/database.js";
import { CA, captureLogger, contentEvent, entryId, sleep, startReceiver, target } from "./helpers.js";

describe.runIf(REDIS_URL)("Redis windows whose key is lost", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it("a window whose key was deleted while open is still delivered (by each holder at worst), with a warning", async () => {
    const prefix = `contentsvc-test:${randomBytes(6).toString("hex")}:`;
    const redis = new Redis(REDIS_URL!);
    cleanup.push(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook = target(receiver.url(), { workspaceId: "ws-1", debounceMs: 400 });
    const source: Required<WebhookSource> = { targetsFor: async () => [hook], current: async () => hook };
    const instance = () => {
      const logger = captureLogger();
      const dispatcher = createDispatcher({ source, windows: createRedisWindows(REDIS_URL!, { prefix }), allowPrivateTargets: true, ca: CA, retryDelaysMs: [], logger });
      cleanup.push(() => dispatcher.close({ graceMs: 500 }));
      return { dispatcher, logger };
    };
    // Two instances hold the window; the later put (B) owns it.
    const a = instance();
    const b = instance();
    a.dispatcher.emit({ ...contentEvent("content.published", entryId(1), { title: "on A" }), workspaceId: "ws-1" });
    await sleep(50);
    b.dispatcher.emit({ ...contentEvent("content.published", entryId(1), { title: "on B" }), workspaceId: "ws-1" });
    await expect.poll(async () => (await redis.keys(`${prefix}debounce:*`)).length, { timeout: 2000 }).toBe(1);
    await sleep(50);
    await redis.del(...(await redis.keys(`${prefix}*`)));
    await receiver.waitFor(1, 3000);
    await sleep(300);
    const titles = receiver.requests.map((r) => JSON.parse(r.raw.toString()).data.entry.title as string);
    // Redis cannot tell who owned it: each holder may send (a duplicate), but B's latest is among them.
    expect(titles).toContain("on B");
    expect(a.logger.text() + b.logger.text()).toContain("webhook window missing on Redis");
  });

  it("a window its owner sent leaves a tombstone: the other holder does not send it again", async () => {
    const prefix = `contentsvc-test:${randomBytes(6).toString("hex")}:`;
    const redis = new Redis(REDIS_URL!);
    cleanup.push(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook = target(receiver.url(), { workspaceId: "ws-1" });
    const instance = (debounceMs: number) => {
      const own = { ...hook, debounceMs };
      const dispatcher = createDispatcher({
        source: { targetsFor: async () => [own], current: async () => own },
        windows: createRedisWindows(REDIS_URL!, { prefix }),
        allowPrivateTargets: true,
        ca: CA,
        retryDelaysMs: [],
        logger: captureLogger(),
      });
      cleanup.push(() => dispatcher.close({ graceMs: 500 }));
      return dispatcher;
    };
    // A holds the window longer than B, which owns it (put last) and closes it first.
    const a = instance(900);
    const b = instance(200);
    a.emit({ ...contentEvent("content.published", entryId(1), { title: "on A" }), workspaceId: "ws-1" });
    await sleep(50);
    b.emit({ ...contentEvent("content.published", entryId(1), { title: "on B" }), workspaceId: "ws-1" });
    await receiver.waitFor(1, 3000);
    await sleep(1200);
    expect(receiver.requests.map((r) => JSON.parse(r.raw.toString()).data.entry.title)).toEqual(["on B"]);
  });
});
