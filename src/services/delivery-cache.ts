/**
 * Response cache of the delivery API (DESIGN §6). An entry is served only while the workspace's
 * content version (bumped by database triggers in the writing transaction, migration 002) is the
 * one it was built at, so a committed write is never followed by a stale read — on this instance,
 * on another instance, or after a write from the CLI. The version is read BEFORE the data, so a
 * race can only label newer data with an older version (a later miss), never the reverse.
 */
import { LRUCache } from "lru-cache";
import type { StoredCollection } from "../storage/collections.js";
import type { TotalsMemo } from "../storage/entries.js";
import type { Sql } from "../storage/sql.js";

export type { TotalsMemo };

export interface CachedResponse {
  collection: StoredCollection;
  /** The collections an `expand` read (their access is checked on every hit). */
  expanded?: StoredCollection[];
  /** The serialized JSON body. */
  body: string;
}

/**
 * Bounded by entries and by bytes (body length); least recently used out first. A response is
 * kept from the second time its query misses: a query asked once (a crawler's deep page, a
 * one-off filter) is answered without pushing out responses that are read again, and without the
 * memory churn of storing what nobody reads twice.
 */
export interface DeliveryCacheOptions {
  /** Default 2,000 responses. */
  maxEntries?: number;
  /** Default 64 MiB of bodies. */
  maxBytes?: number;
}

type Entry = CachedResponse & { version: number };

/**
 * What the cache reads on a miss: the database, and a collection's definition by name (404 when
 * unknown). Passed in rather than the service context, whose type names this cache's.
 */
export interface DeliverySource {
  sql: Sql;
  collection(workspaceId: string, name: string): Promise<StoredCollection>;
}

export function createDeliveryCache(source: DeliverySource, options: DeliveryCacheOptions = {}) {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  // Collection definitions bump the content version too, so a definition is reused on a cache
  // miss (another query string) while the version it was read at is current.
  const definitions = new LRUCache<string, { collection: StoredCollection; version: number }>({ max: options.maxEntries ?? 2000 });
  // List totals change only with entries, which bump the content version: a total is reused by
  // every page and spelling of the same filters while the version it was counted at is current.
  const totals = new LRUCache<string, { total: number; version: number }>({ max: options.maxEntries ?? 2000 });
  // Queries that missed once, not yet kept: keys only, far smaller than bodies.
  const seen = new LRUCache<string, true>({ max: 4 * (options.maxEntries ?? 2000) });
  const entries = new LRUCache<string, Entry>({
    max: options.maxEntries ?? 2000,
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.body.length),
    // One huge page must not flush everything: it is simply not kept.
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
  });

  return {
    /** The workspace's current content version (one primary-key lookup). */
    async version(workspaceId: string): Promise<number> {
      const row = await source.sql.get<{ version: number }>("SELECT version FROM content_versions WHERE workspace_id = ?", [workspaceId]);
      return Number(row?.version ?? 0);
    },

    /** The collection `name` of the workspace as of `version` (read before it), or 404. */
    async collection(workspaceId: string, name: string, version: number): Promise<StoredCollection> {
      const key = `${workspaceId}|${name}`;
      const hit = definitions.get(key);
      if (hit && hit.version === version) return hit.collection;
      const collection = await source.collection(workspaceId, name);
      definitions.set(key, { collection, version });
      return collection;
    },

    /** List totals of the workspace as of `version` (read before them). */
    totals(version: number): TotalsMemo {
      return {
        get(key) {
          const hit = totals.get(key);
          return hit?.version === version ? hit.total : undefined;
        },
        set(key, total) {
          totals.set(key, { total, version });
        },
      };
    },

    get(key: string, version: number): CachedResponse | undefined {
      const hit = entries.get(key); // refreshes recency
      if (hit && hit.version !== version) {
        entries.delete(key);
        return undefined;
      }
      return hit;
    },

    /** Keeps a response built at `version`, if its query missed before (see above). */
    set(key: string, version: number, value: CachedResponse): void {
      if (!seen.has(key)) {
        seen.set(key, true);
        return;
      }
      entries.set(key, { ...value, version });
    },

    get size() {
      return entries.size;
    },
  };
}

export type DeliveryCache = ReturnType<typeof createDeliveryCache>;
