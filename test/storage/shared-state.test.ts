/**
 * The shared-state operations sign-in throttling relies on (add with a sliding expiry, ttl,
 * remove), on the in-process store and on Redis, the same way.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisSharedState } from "../../src/storage/redis-state.js";
import { createMemorySharedState, type SharedState } from "../../src/storage/shared-state.js";
import { REDIS_URL } from "../helpers/database.js";

const stores: [string, () => Promise<SharedState>][] = [["memory", async () => createMemorySharedState()]];
const redisUrl = REDIS_URL;
if (redisUrl) stores.push(["redis", () => createRedisSharedState(redisUrl)]);

describe.each(stores)("shared state on %s", (_name, open) => {
  let shared: SharedState;
  // Keys of this run only: Redis is shared with other runs.
  const key = (name: string) => `test:${randomBytes(6).toString("hex")}:${name}`;
  beforeAll(async () => {
    shared = await open();
  });
  afterAll(() => shared?.close());

  it("add counts up and down, refreshes the expiry, and removes a count that reaches 0", async () => {
    const k = key("count");
    expect(await shared.add(k, 1, 60_000)).toBe(1);
    expect(await shared.add(k, 1, 60_000)).toBe(2);
    expect(await shared.ttl(k)).toBeGreaterThan(59_000);
    expect(await shared.add(k, 1, 120_000)).toBe(3);
    expect(await shared.ttl(k)).toBeGreaterThan(119_000);
    expect(await shared.add(k, -1, 60_000)).toBe(2);
    expect(await shared.add(k, -2, 60_000)).toBe(0);
    expect(await shared.ttl(k)).toBe(0);
    expect(await shared.add(k, 1, 60_000)).toBe(1);
  });

  it("ttl reads claims and counters; 0 when absent; remove clears both", async () => {
    const [c, n] = [key("claim"), key("counter")];
    expect(await shared.ttl(c)).toBe(0);
    expect(await shared.claim(c, 30_000)).toBe(true);
    expect(await shared.claim(c, 30_000)).toBe(false);
    expect(await shared.ttl(c)).toBeGreaterThan(29_000);
    await shared.add(n, 1, 30_000);
    await shared.remove(c, n);
    expect([await shared.ttl(c), await shared.ttl(n)]).toEqual([0, 0]);
    expect(await shared.claim(c, 30_000)).toBe(true);
    await shared.remove();
  });

  it("expiry follows the store's clock", async () => {
    const k = key("short");
    await shared.add(k, 1, 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(await shared.ttl(k)).toBe(0);
    expect(await shared.add(k, 1, 50)).toBe(1);
  });
});
