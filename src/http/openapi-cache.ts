/**
 * The built OpenAPI documents of a service, serialized, with their ETags. Building one costs
 * ~15 times a list read and the route is open to anyone, so a document is built once per
 * workspace, content version (every collection change bumps it: migration 002, see
 * services/delivery-cache.ts), title and visibility class, and served from here until one of
 * them changes. Bounded by count and bytes, least recently used out first; documents of older
 * versions are never served again and simply age out.
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ServiceContext } from "../services/context.js";

export interface BuiltDocument {
  /** The JSON text. */
  body: string;
  /** A strong ETag: the body's SHA-256. */
  etag: string;
}

export interface OpenApiCache {
  /** The document of `key`, built by `build` only when it is not held. */
  get(key: string, build: () => Promise<unknown>): Promise<BuiltDocument>;
  /** How many documents were built (a hit builds none). */
  readonly builds: number;
}

const MAX_DOCUMENTS = 200;
const MAX_BYTES = 32 * 1024 * 1024;
const caches = new WeakMap<ServiceContext, OpenApiCache>();

/** The service's one cache of OpenAPI documents. */
export function openApiCache(service: ServiceContext): OpenApiCache {
  let cache = caches.get(service);
  if (!cache) caches.set(service, (cache = createOpenApiCache()));
  return cache;
}

function createOpenApiCache(): OpenApiCache {
  const documents = new LRUCache<string, BuiltDocument>({ max: MAX_DOCUMENTS, maxSize: MAX_BYTES, sizeCalculation: (d) => Math.max(1, d.body.length) });
  // Concurrent misses of one key share one build.
  const pending = new Map<string, Promise<BuiltDocument>>();
  let builds = 0;
  return {
    get builds() {
      return builds;
    },
    get(key, build) {
      const hit = documents.get(key);
      if (hit) return Promise.resolve(hit);
      let running = pending.get(key);
      if (!running) {
        running = (async () => {
          builds++;
          const body = JSON.stringify(await build());
          const built = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
          documents.set(key, built);
          return built;
        })().finally(() => pending.delete(key));
        pending.set(key, running);
      }
      return running;
    },
  };
}
