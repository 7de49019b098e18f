/**
 * Shared state on Redis, so several instances throttle and rate-limit as one.
 */
import { Redis } from "ioredis";
import type { SharedState } from "./shared-state.js";

const PREFIX = "contentsvc:";
const PING_TIMEOUT_MS = 1000;
// One atomic step, so a concurrent add cannot fall between the increment and the removal.
const ADD_SCRIPT = `local c = redis.call('INCRBY', KEYS[1], ARGV[1])
if c <= 0 then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return c`;

export async function createRedisSharedState(url: string): Promise<SharedState> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  // ioredis reconnects by itself; without a listener it prints every failed attempt as unhandled.
  client.on("error", () => {});
  await client.connect();

  return {
    async claim(key, ttlMs) {
      return (await client.set(PREFIX + key, "1", "PX", ttlMs, "NX")) === "OK";
    },
    async hit(key, windowMs) {
      const k = PREFIX + key;
      const [[, count], [, ttl]] = (await client.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
      if (ttl < 0) {
        await client.pexpire(k, windowMs);
        return { count, resetMs: windowMs };
      }
      return { count, resetMs: ttl };
    },
    async add(key, by, ttlMs) {
      return Number(await client.eval(ADD_SCRIPT, 1, PREFIX + key, by, ttlMs));
    },
    async ttl(key) {
      // -2: no such key; -1: no expiry (never set by us).
      return Math.max(0, await client.pttl(PREFIX + key));
    },
    async remove(...keys) {
      if (keys.length) await client.del(...keys.map((k) => PREFIX + k));
    },
    async ping() {
      // Commands queue while ioredis reconnects: a readiness probe must not wait for that.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("Redis PING timed out")), PING_TIMEOUT_MS)));
      try {
        await Promise.race([client.ping(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
