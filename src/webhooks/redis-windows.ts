/**
 * Cluster-wide coalescing/debounce windows on Redis (DESIGN §3, docs/scaling.md): instances sharing
 * one Redis close each window once, and the instance that put the LAST value in it sends it.
 *
 * Decisions:
 * - Redis holds only an owner token per window (`SET key token PX ttl`), never the value: the value
 *   (an event, or a webhook target with its decrypted secret) stays in the process that owns it.
 *   The last SET to reach Redis owns the window; its value is exactly that instance's latest value.
 * - The timers and values are the local ones of timed-windows.ts; this file is only its claims. When this instance's timer of a window runs
 *   out, one atomic compare-and-close decides: token still mine → this instance sends and leaves a
 *   tombstone (for the TTL slack) instead of the token; another token or a tombstone → a later put
 *   on another instance owns the window, or its owner sent it already.
 * - A window whose key is gone (Redis restarted without persistence, evicted it, was flushed) is
 *   sent by every instance that holds it, with a warning: Redis cannot tell who owns it, and a
 *   store that cannot tell answers "send": a possible duplicate, never a loss.
 * - Redis trouble degrades to per-instance windows (a possible duplicate, never a loss): a put
 *   whose SET failed, or a take whose compare failed, sends locally.
 * - A hard crash loses the windows the crashed instance owned (the token expires after the TTL).
 */
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { errorText } from "./error-text.js";
import { createTimedWindows, type WindowClaims } from "./timed-windows.js";
import type { WindowStoreFactory } from "./window-store.js";

/**
 * Compare-and-close: 1 when KEYS[1] still holds ARGV[1] (it now holds a tombstone for ARGV[2] ms,
 * so the other instances see the window was sent); 0 when another token or a tombstone is there;
 * -1 when the key is gone altogether (Redis restarted without persistence, evicted, flushed).
 */
const CLOSE_IF_MINE = `local held = redis.call("GET", KEYS[1])
if held == ARGV[1] then redis.call("SET", KEYS[1], "closed", "PX", ARGV[2]) return 1 end
if held == false then return -1 end
return 0`;

export interface RedisWindowOptions {
  /** Key prefix; default `contentsvc:win:`. Instances share windows only under the same prefix. */
  prefix?: string;
  /** Extra lifetime of a token beyond its window (so a crashed owner's key goes away), and the lifetime of a sent window's tombstone. Default 60 s. */
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
          const closed = await (await connect()).eval(CLOSE_IF_MINE, 1, redisKey(key), claim.token, String(slack));
          if (closed === -1) logger.warn("webhook window missing on Redis (restarted, evicted or flushed); sending it from this instance", { stage });
          return closed !== 0;
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
