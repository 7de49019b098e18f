/**
 * What the storage layer needs from a running service: the SQL handle, the blob store, the sealer,
 * the shared state, the logger and the clock. Repositories take it; the full `ServiceContext`
 * (services/context.ts) extends it, so a service passes its own context straight through.
 */
import type { Storage } from "unstorage";
import type { ConsolaInstance } from "consola";
import type { Sql } from "./sql.js";
import type { Sealer } from "./seal.js";
import type { SharedState } from "./shared-state.js";

export interface StorageContext {
  sql: Sql;
  blobs: Storage;
  sealer: Sealer;
  shared: SharedState;
  logger: ConsolaInstance;
  /** Milliseconds since the epoch; injectable for tests. */
  now(): number;
}

const repos = new WeakMap<object, Map<unknown, unknown>>();

/**
 * One instance of a repository (or any per-context helper) per context.
 *
 * @example
 * const keys = repo(ctx, createKeyRepo);
 */
export function repo<C extends object, T>(ctx: C, factory: (ctx: C) => T): T {
  let map = repos.get(ctx);
  if (!map) repos.set(ctx, (map = new Map()));
  if (!map.has(factory)) map.set(factory, factory(ctx));
  return map.get(factory) as T;
}
