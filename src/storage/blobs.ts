/**
 * Blob storage (media bytes, site files) through unstorage. The CLI maps `--blobs` to a driver;
 * embedders pass their own `Storage` instance.
 */
import { createStorage, type Storage } from "unstorage";
import fsDriver from "unstorage/drivers/fs";
import memoryDriver from "unstorage/drivers/memory";
import { resolve } from "node:path";
import { preparePrivateDir, privateFsDriver } from "./private-files.js";

/**
 * `memory:` → in-memory (tests), `redis://…` → unstorage's redis driver, anything else is a
 * directory for the fs driver, created 0700, its files 0600 (private-files.ts).
 */
export async function createBlobStorage(spec: string): Promise<Storage> {
  if (spec === "memory:" || spec === "memory") return createStorage({ driver: memoryDriver() });
  if (/^rediss?:\/\//.test(spec)) {
    const { default: redisDriver } = await import("unstorage/drivers/redis");
    return createStorage({ driver: redisDriver({ url: spec, base: "contentsvc:blobs" }) });
  }
  const base = resolve(spec);
  preparePrivateDir(base);
  return createStorage({ driver: privateFsDriver(fsDriver({ base }), base) });
}
