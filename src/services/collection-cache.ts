/**
 * Collection definitions by name, kept per workspace content version: any change to a collection
 * bumps the version in its writing transaction (migration 002), so a definition read at the
 * version the request read with its tenant (before any data) is the current one. Saves the
 * definition query and its JSON parse on every delivery read that misses the response cache.
 */
import { LRUCache } from "lru-cache";
import type { StoredCollection } from "../storage/collections.js";
import { repo } from "../storage/context.js";
import type { ServiceContext } from "./context.js";
import { getCollection } from "./collections.js";

const createCollectionCache = () => new LRUCache<string, { version: number; collection: StoredCollection }>({ max: 1000 });

/** `getCollection` at content `version` (undefined: not known, read it). */
export async function collectionAt(ctx: ServiceContext, workspaceId: string, name: string, version: number | undefined): Promise<StoredCollection> {
  if (version === undefined) return getCollection(ctx, workspaceId, name);
  const cache = repo(ctx, createCollectionCache);
  const key = `${workspaceId}|${name}`;
  const hit = cache.get(key);
  if (hit?.version === version) return hit.collection;
  const collection = await getCollection(ctx, workspaceId, name);
  cache.set(key, { version, collection });
  return collection;
}
