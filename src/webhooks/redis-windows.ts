/**
 * Cluster-wide coalescing/debounce windows on Redis (DESIGN §3, docs/scaling.md): instances sharing
 * one Redis close each window once, and the instance that put the LAST value in it sends it.
 *
 * Decisions:
 * - Redis holds only an owner token per window (`SET key token PX ttl`), never the value: the value
 *   (an event, or a webhook target with its decrypted secret) stays in the process that owns it.
 *   The last SET to reach Redis owns the window; its value is exactly that instance's latest value.
 * - Every touch arms a local trailing timer as in debounce.ts. When it fires, one atomic
 *   compare-and-delete decides: token still mine → this instance sends; else a later touch on
 *   another instance owns the window and its own timer will send it.
 * - Redis trouble degrades to per-instance windows (a possible duplicate, never a loss): a touch
 *   whose SET failed, or a close whose compare failed, sends locally.
 * - A hard crash loses the windows the crashed instance owned (the token expires after the TTL).
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { schedule } from "./debounce.js";
import type { DispatcherClock, DispatcherLogger, WindowStore, WindowStoreFactory } from "./types.js";

/** Compare-and-delete: 1 when KEYS[1] still holds ARGV[1] (and it is now gone), else 0. */
const CLOSE_IF_MINE = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) return 1 end return 0`;

export interface RedisWindowOptions {
  /** Key prefix; default `contentsvc:win:`. Instances share windows only under the same prefix. */
  prefix?: string;
  /** Extra lifetime of a token beyond its window, so a crashed owner's key goes away. Default 60 s. */
  ttlSlackMs?: number;
}

interface Slot<V> {
  value: V;
  token: string;
  /** The SET of the current token failed: close locally, without asking Redis. */
  unshared: boolean;
  dueAt: number;
  firesAt: number;
  timer: unknown;
}

/**
 * A window store factory on Redis. The stores it makes share one connection, opened on first use
 * (ioredis is loaded only then) and closed when the last store closes.
 *
 * @example
 * createDispatcher({ source, windows: createRedisWindows("redis://127.0.0.1:6379") });
 */
export function createRedisWindows(url: string, options: RedisWindowOptions = {}): WindowStoreFactory {
  const prefix = options.prefix ?? "contentsvc:win:";
  const slack = options.ttlSlackMs ?? 60_000;
  const instance = randomBytes(8).toString("hex");
  let seq = 0;
  let client: Promise<Redis> | undefined;
  let open = 0;
  const connect = () =>
    (client ??= import("ioredis").then(({ Redis }) => {
      const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 2000 });
      // Connection errors surface as failed commands, logged per window below; ioredis reconnects.
      redis.on("error", () => undefined);
      return redis;
    }));

  return <V>(stage: string, clock: DispatcherClock, onClose: (value: V) => void, logger: DispatcherLogger): WindowStore<V> => {
    open++;
    const slots = new Map<string, Slot<V>>();
    const closing = new Set<Promise<void>>();
    const redisKey = (key: string) => `${prefix}${stage}:${key.replaceAll("\0", "|")}`;
    const warn = (what: string, err: unknown) =>
      logger.warn(`webhook window ${what} failed on Redis; closing it on this instance`, { stage, error: err instanceof Error ? err.message : String(err) });

    /** True when this instance owns the window and must send it. */
    const claim = async (key: string, slot: Slot<V>): Promise<boolean> => {
      if (slot.unshared) return true;
      try {
        return (await (await connect()).eval(CLOSE_IF_MINE, 1, redisKey(key), slot.token)) === 1;
      } catch (err) {
        warn("close", err);
        return true;
      }
    };

    const fire = (key: string): void => {
      const slot = slots.get(key);
      if (!slot) return;
      const now = clock.now();
      if (now < slot.dueAt) {
        slot.firesAt = slot.dueAt;
        slot.timer = schedule(clock, () => fire(key), slot.dueAt - now);
        return;
      }
      slots.delete(key);
      const done: Promise<void> = claim(key, slot)
        .then((mine) => (mine ? onClose(slot.value) : undefined))
        .catch((err: unknown) => logger.error("webhook window close failed", { stage, error: err instanceof Error ? err.message : String(err) }))
        .finally(() => closing.delete(done));
      closing.add(done);
    };

    const register = (key: string, slot: Slot<V>, delayMs: number): void => {
      const token = slot.token;
      void connect()
        .then((redis) => redis.set(redisKey(key), token, "PX", Math.ceil(delayMs) + slack))
        .then(
          () => void (slot.token === token && (slot.unshared = false)),
          (err: unknown) => {
            if (slot.token !== token) return;
            slot.unshared = true;
            warn("touch", err);
          },
        );
    };

    return {
      touch(key, value, delayMs) {
        const dueAt = clock.now() + delayMs;
        const token = `${instance}:${++seq}`;
        let slot = slots.get(key);
        if (!slot) {
          slot = { value, token, unshared: false, dueAt, firesAt: dueAt, timer: schedule(clock, () => fire(key), delayMs) };
          slots.set(key, slot);
        } else {
          Object.assign(slot, { value, token, dueAt });
          // Only a shorter window (debounce_ms lowered) needs a new timer; see debounce.ts.
          if (dueAt < slot.firesAt) {
            clock.clearTimeout(slot.timer);
            slot.firesAt = dueAt;
            slot.timer = schedule(clock, () => fire(key), delayMs);
          }
        }
        register(key, slot, delayMs);
      },
      has: (key) => slots.has(key),
      async drain() {
        const entries = [...slots];
        slots.clear();
        for (const [, slot] of entries) clock.clearTimeout(slot.timer);
        const mine = await Promise.all(entries.map(([key, slot]) => claim(key, slot)));
        // Closes already under way hand their values to onClose themselves.
        await Promise.all([...closing]);
        return entries.filter((_, i) => mine[i]).map(([, slot]) => slot.value);
      },
      get size() {
        return slots.size + closing.size;
      },
      async close() {
        if (--open > 0 || !client) return;
        const redis = await client;
        client = undefined;
        // Every command of this store was awaited by the last drain: nothing is left to flush.
        if (redis.status === "ready") await redis.quit().catch(() => undefined);
        redis.disconnect();
      },
    };
  };
}
