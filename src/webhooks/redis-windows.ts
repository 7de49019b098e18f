/**
 * Cluster-wide coalescing/debounce windows on Redis (DESIGN §3, docs/scaling.md): instances sharing
 * one Redis close each window once, and the instance that put the LAST value in it sends it.
 *
 * Decisions:
 * - Redis holds only an owner token per window (`SET key token PX ttl`), never the value: the value
 *   (an event, or a webhook target with its decrypted secret) stays in the process that owns it.
 *   The last SET to reach Redis owns the window; its value is exactly that instance's latest value.
 * - The timers and values are the local ones of timed-windows.ts; this file is only its claims. When this instance's timer of a window runs
 *   out, one atomic compare-and-delete decides: token still mine → this instance sends; else a
 *   later put on another instance owns the window and its own timer will send it.
 * - Redis trouble degrades to per-instance windows (a possible duplicate, never a loss): a put
 *   whose SET failed, or a take whose compare failed, sends locally.
 * - A hard crash loses the windows the crashed instance owned (the token expires after the TTL).
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { errorText } from "./error-text.js";
import { createTimedWindows, type WindowClaims } from "./timed-windows.js";
import type { WindowStoreFactory } from "./window-store.js";

/** Compare-and-delete: 1 when KEYS[1] still holds ARGV[1] (and it is now gone), else 0. */
const CLOSE_IF_MINE = `if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) return 1 end return 0`;

export interface RedisWindowOptions {
  /** Key prefix; default `contentsvc:win:`. Instances share windows only under the same prefix. */
  prefix?: string;
  /** Extra lifetime of a token beyond its window, so a crashed owner's key goes away. Default 60 s. */
  ttlSlackMs?: number;
}

/** This instance's claim on one window. */
interface Claim {
  token: string;
  /** The SET of the current token failed: close locally, without asking Redis. */
  unshared: boolean;
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

  return (context) => {
    const { stage, logger } = context;
    open++;
    const claims = new Map<string, Claim>();
    const redisKey = (key: string) => `${prefix}${stage}:${key.replaceAll("\0", "|")}`;
    const warn = (what: string, err: unknown) =>
      logger.warn(`webhook window ${what} failed on Redis; closing it on this instance`, { stage, error: errorText(err) });

    const claimsOfStage: WindowClaims = {
      put(key, delayMs) {
        const token = `${instance}:${++seq}`;
        let claim = claims.get(key);
        if (claim) claim.token = token;
        else claims.set(key, (claim = { token, unshared: false }));
        const mine = claim;
        void connect()
          .then((redis) => redis.set(redisKey(key), token, "PX", Math.ceil(delayMs) + slack))
          .then(
            () => void (mine.token === token && (mine.unshared = false)),
            (err: unknown) => {
              if (mine.token !== token) return;
              mine.unshared = true;
              warn("touch", err);
            },
          );
      },
      async take(key) {
        const claim = claims.get(key);
        claims.delete(key);
        if (!claim || claim.unshared) return true;
        try {
          return (await (await connect()).eval(CLOSE_IF_MINE, 1, redisKey(key), claim.token)) === 1;
        } catch (err) {
          warn("close", err);
          return true;
        }
      },
      async close() {
        if (--open > 0 || !client) return;
        const redis = await client;
        client = undefined;
        // Every take of this store was awaited by the last drain: nothing is left to flush.
        if (redis.status === "ready") await redis.quit().catch(() => undefined);
        redis.disconnect();
      },
    };
    return createTimedWindows(claimsOfStage, context);
  };
}
