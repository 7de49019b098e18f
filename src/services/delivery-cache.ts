/**
 * The delivery API's one response cache (DESIGN §6), used by services/delivery.ts alone. Whatever
 * it holds is tied to the workspace's content version (bumped by database triggers in the writing
 * transaction, migration 002) it was read at, and used only while that version is current, so a
 * committed write is never followed by a stale read — on this instance, on another instance, or
 * after a write from the CLI. The version is read BEFORE the data, so a race can only label newer
 * data with an older version (a later miss), never the reverse.
 *
 * Two parts, both version-keyed: the responses (JSON text by workspace, collection and raw query),
 * and per workspace what every response of one version shares — collection definitions and list
 * totals — so a query spelled anew still skips the definition read and, for the same filters, the
 * count.
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
 * Bounded by responses and by bytes (body length); least recently used out first. A response is
 * kept from the second time its query misses: a query asked once (a crawler's deep page, a
 * one-off filter) is answered without pushing out responses that are read again, and without the
 * memory churn of storing what nobody reads twice.
 */
export interface DeliveryCacheOptions {
  /** Default 2,000 responses (and as many workspaces' definitions and totals). */
  maxEntries?: number;
  /** Default 64 MiB of bodies. */
  maxBytes?: number;
}

type Slot = CachedResponse & { version: number };

/** What every read of one workspace at one content version shares; replaced whole when the version moves on. */
interface Generation {
  version: number;
  collections: Map<string, StoredCollection>;
  /** By the count's SQL and parameters. */
  totals: Map<string, number>;
}

/** Totals kept per workspace and version: past this, the memo starts over (filters are many, pages reuse few). */
const MAX_TOTALS = 1000;

/**
 * What the cache reads on a miss: the database, and a collection's definition by name (404 when
 * unknown). Passed in rather than the service context, whose type names this cache's.
 */
export interface DeliverySource {
  sql: Sql;
  collection(workspaceId: string, name: string): Promise<StoredCollection>;
}

export function createDeliveryCache(source: DeliverySource, options: DeliveryCacheOptions = {}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const generations = new LRUCache<string, Generation>({ max: maxEntries });
  // Queries that missed once, not yet kept: keys only, far smaller than bodies.
  const seen = new LRUCache<string, true>({ max: 4 * maxEntries });
  const responses = new LRUCache<string, Slot>({
    max: maxEntries,
    maxSize: maxBytes,
    sizeCalculation: (slot) => Math.max(1, slot.body.length),
    // One huge page must not flush everything: it is simply not kept.
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
  });

  /** The workspace's generation at `version`; a read that raced behind a newer one gets a fresh one, not kept. */
  const generation = (workspaceId: string, version: number): Generation => {
    const current = generations.get(workspaceId);
    if (current?.version === version) return current;
    const fresh: Generation = { version, collections: new Map(), totals: new Map() };
    if (!current || current.version < version) generations.set(workspaceId, fresh);
    return fresh;
  };

  return {
    /** The workspace's current content version (one primary-key lookup). */
    async version(workspaceId: string): Promise<number> {
      const row = await source.sql.get<{ version: number }>("SELECT version FROM content_versions WHERE workspace_id = ?", [workspaceId]);
      return Number(row?.version ?? 0);
    },

    /** The collection `name` of the workspace as of `version` (read before it), or 404. */
    async collection(workspaceId: string, name: string, version: number): Promise<StoredCollection> {
      const { collections } = generation(workspaceId, version);
      const known = collections.get(name);
      if (known) return known;
      const collection = await source.collection(workspaceId, name);
      collections.set(name, collection);
      return collection;
    },

    /** List totals of the workspace as of `version` (read before them). */
    totals(workspaceId: string, version: number): TotalsMemo {
      const { totals } = generation(workspaceId, version);
      return {
        get: (key) => totals.get(key),
        set(key, total) {
          if (totals.size >= MAX_TOTALS) totals.clear();
          totals.set(key, total);
        },
      };
    },

    get(key: string, version: number): CachedResponse | undefined {
      const hit = responses.get(key); // refreshes recency
      if (hit && hit.version !== version) {
        responses.delete(key);
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
      responses.set(key, { ...value, version });
    },

    /** Responses kept. */
    get size() {
      return responses.size;
    },
  };
}

export type DeliveryCache = ReturnType<typeof createDeliveryCache>;

