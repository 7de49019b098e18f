/**
 * What the storage layer needs from a running service: the SQL handle, the blob store, the sealer,
 * the shared state, the logger, the clock and the options it reads. Repositories are built from it
 * (storage/repositories.ts); the full `ServiceContext` (services/context.ts) extends it and carries
 * them as `ctx.db`.
 */
import type { Storage } from "unstorage";
import type { ScryptParams } from "../core/scrypt.js";
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
  options: StorageOptions;
  /** Milliseconds since the epoch; injectable for tests. */
  now(): number;
}

/** The resolved options storage reads (services/context.ts `ResolvedOptions` has them all). */
export interface StorageOptions {
  /** scrypt cost of new password hashes: OWASP_SCRYPT unless `insecureFastPasswordHashing`. */
  passwordParams: ScryptParams;
}
