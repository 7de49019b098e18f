/**
 * The Redis window store through the window store conformance suite (needs SVC_TEST_REDIS_URL).
 * Each case gets its own key prefix; every instance its own factory, i.e. its own instance id.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe } from "vitest";
import { createDispatcher } from "../../src/webhooks/index.js";
import { createRedisWindows } from "../../src/webhooks/redis-windows.js";
import type { DispatcherOptions } from "../../src/webhooks/index.js";
import { REDIS_URL } from "../helpers/database.js";
import { describeWindowStore } from "./window-store-conformance.js";

describe.runIf(REDIS_URL)("Redis", () => {
  describeWindowStore("redis", { shared: true, persistent: false, latencyMs: 50 }, async () => {
    const prefix = `contentsvc-test:${randomBytes(6).toString("hex")}:`;
    return {
      workspaceId: "ws-1",
      async instance(options) {
        const dispatcher = createDispatcher({ ...(options as DispatcherOptions), windows: createRedisWindows(REDIS_URL!, { prefix }) });
        return { dispatcher, emit: async (event) => dispatcher.emit(event) };
      },
      async cleanup() {
        const redis = new Redis(REDIS_URL!);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      },
    };
  });
});
