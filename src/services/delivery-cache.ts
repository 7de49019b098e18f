/**
 * Response cache of the delivery API (DESIGN §6). An entry is served only while the workspace's
 * content version (bumped by database triggers in the writing transaction, migration 002) is the
 * one it was built at, so a committed write is never followed by a stale read — on this instance,
 * on another instance, or after a write from the CLI. The version is read BEFORE the data, so a
 * race can only label newer data with an older version (a later miss), never the reverse.
 */
import type { ServiceContext } from "./context.js";
import type { StoredCollection } from "../storage/collections.js";

export interface CachedResponse {
  collection: StoredCollection;
  /** The serialized JSON body. */
  body: string;
}

/** Bounded by entries and by bytes; least recently used out first (a Map keeps insertion order). */
export interface DeliveryCacheOptions {
  /** Default 2,000 responses. */
  maxEntries?: number;
  /** Default 64 MiB of bodies. */
  maxBytes?: number;
}

export function createDeliveryCache(ctx: ServiceContext, options: DeliveryCacheOptions = {}) {
  const maxEntries = options.maxEntries ?? 2000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const entries = new Map<string, CachedResponse & { version: number }>();
  let bytes = 0;

  const evict = (key: string) => {
    const old = entries.get(key);
    if (old) {
      bytes -= old.body.length;
      entries.delete(key);
    }
  };

  return {
    /** The workspace's current content version (one primary-key lookup). */
    async version(workspaceId: string): Promise<number> {
      const row = await ctx.sql.get<{ version: number }>("SELECT version FROM content_versions WHERE workspace_id = ?", [workspaceId]);
      return Number(row?.version ?? 0);
    },

    get(key: string, version: number): CachedResponse | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.version !== version) {
        evict(key);
        return undefined;
      }
      entries.delete(key); // refresh recency
      entries.set(key, hit);
      return hit;
    },

    set(key: string, version: number, value: CachedResponse): void {
      if (value.body.length > maxBytes / 8) return; // one huge page must not flush everything
      evict(key);
      entries.set(key, { ...value, version });
      bytes += value.body.length;
      for (const k of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        evict(k);
      }
    },

    get size() {
      return entries.size;
    },
  };
}

export type DeliveryCache = ReturnType<typeof createDeliveryCache>;
