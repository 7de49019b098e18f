/**
 * Builds a service's in-memory caches (`ctx.caches`, services/context.ts), once, on its context.
 */
import { LRUCache } from "lru-cache";
import type { Caches, ServiceContext } from "./context.js";
import { createDeliveryCache } from "./delivery-cache.js";
import { getCollection } from "./collections.js";

/** Bounded: beyond this many API keys the least recently used is read again from the database. */
const MAX_KEYS = 10_000;

export function createCaches(ctx: ServiceContext): Caches {
  return {
    keys: new LRUCache({ max: MAX_KEYS }),
    delivery: createDeliveryCache({ sql: ctx.sql, collection: (workspaceId, name) => getCollection(ctx, workspaceId, name) }),
    readLanes: new Map(),
  };
}
