/**
 * The delivery cache's bounds: a response is kept from its query's second miss; at most
 * `maxEntries` responses and `maxBytes` of bodies, least recently used out first; a body over an
 * eighth of `maxBytes` is never kept; an entry built at another content version is dropped when read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../helpers/server.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { createService, type Service } from "../../src/service.js";
import { createDeliveryCache, type DeliveryCacheOptions } from "../../src/services/delivery-cache.js";
import { getCollection } from "../../src/services/collections.js";
import type { StoredCollection } from "../../src/storage/collections.js";

describe("delivery cache bounds", () => {
  let db: TestDatabase;
  let svc: Service;
  const collection = { name: "posts" } as StoredCollection;
  const response = (body: string) => ({ collection, body });
  type Cache = ReturnType<typeof createDeliveryCache>;
  /** A cache reading what the service's own reads: its database and its collections. */
  const newCache = (options?: DeliveryCacheOptions) =>
    createDeliveryCache({ sql: svc.context.sql, collection: (workspaceId, name) => getCollection(svc.context, workspaceId, name) }, options);
  const cached = (cache: Cache, keys: string[]) => keys.filter((k) => cache.get(k, 1) !== undefined);
  /** What a query that missed twice leaves: the second miss's response is kept. */
  const store = (cache: Cache, key: string, version: number, body: string) => {
    cache.set(key, version, response(body));
    cache.set(key, version, response(body));
  };

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    svc = await createService({ dataDir: db.dataDir, database: db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.cleanup();
  });

  it("keeps a response from the second time its query misses, not the first", () => {
    const cache = newCache();
    cache.set("once", 1, response("[1]"));
    expect(cache.get("once", 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set("once", 1, response("[2]"));
    expect(cache.get("once", 1)?.body).toBe("[2]");
    // A query seen before is kept at once after a write moved the version on.
    cache.set("once", 2, response("[3]"));
    expect(cache.get("once", 2)?.body).toBe("[3]");
  });

  it("keeps at most maxEntries responses, the least recently used out first", () => {
    const cache = newCache({ maxEntries: 3 });
    for (const k of ["a", "b", "c"]) store(cache, k, 1, `[${k}]`);
    expect(cache.get("a", 1)?.body).toBe("[a]"); // a is now the most recently used
    store(cache, "d", 1, "[d]");
    expect(cache.size).toBe(3);
    expect(cached(cache, ["a", "b", "c", "d"])).toEqual(["a", "c", "d"]);
  });

  it("keeps at most maxBytes of bodies, evicting the oldest until the new one fits", () => {
    const cache = newCache({ maxBytes: 80 });
    for (const k of ["a", "b", "c", "d"]) store(cache, k, 1, k.repeat(10));
    expect(cached(cache, ["a", "b", "c", "d"])).toEqual(["a", "b", "c", "d"]);
    for (const k of ["e", "f", "g", "h", "i"]) store(cache, k, 1, k.repeat(10));
    expect(cache.size).toBe(8);
    expect(cached(cache, ["a", "b", "c", "d", "e", "f", "g", "h", "i"])).toEqual(["b", "c", "d", "e", "f", "g", "h", "i"]);
  });

  it("never keeps a body over an eighth of maxBytes", () => {
    const cache = newCache({ maxBytes: 80 });
    store(cache, "fits", 1, "x".repeat(10));
    store(cache, "huge", 1, "x".repeat(11));
    expect(cached(cache, ["fits", "huge"])).toEqual(["fits"]);
  });

  it("replacing a key counts its body once", () => {
    const cache = newCache({ maxBytes: 80 });
    for (let i = 0; i < 20; i++) store(cache, "same", 1, "x".repeat(10));
    for (const k of ["a", "b", "c", "d", "e", "f", "g"]) store(cache, k, 1, k.repeat(10));
    expect(cache.size).toBe(8);
    expect(cache.get("same", 1)).toBeDefined();
  });

  it("drops an entry read at another content version", () => {
    const cache = newCache();
    store(cache, "k", 1, "[]");
    expect(cache.get("k", 2)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get("k", 1)).toBeUndefined();
  });

  it("reads the workspace's content version from the database", async () => {
    const cache = newCache();
    expect(await cache.version("no-such-workspace")).toBe(0);
  });
});
