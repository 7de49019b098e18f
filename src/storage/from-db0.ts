/**
 * A db0 `Database` as the service's Sql (STYLE 4: the embedding API accepts instances). db0 0.4
 * has no transactions and its statements report no changed-row count, so the service does not
 * run on db0's API but on the engine under it: a synchronous SQLite engine (better-sqlite3,
 * node:sqlite, bun:sqlite: one connection, writes serialized as for a file we open) or the pg
 * `Client` of db0's postgresql connector (one connection, statements queued behind a transaction).
 * Anything else is refused with the alternatives named.
 */
import type { Database as Db0Database } from "db0";
import type { Sql } from "./sql.js";

/** Whether `value` is a db0 `Database` (from `createDatabase(connector)`) rather than our Sql. */
export function isDb0Database(value: unknown): value is Db0Database {
  const v = value as Partial<Db0Database & Sql> | null;
  return typeof v === "object" && v !== null && typeof v.getInstance === "function" && typeof v.prepare === "function" && typeof v.transaction !== "function";
}

/**
 * The service's Sql over `db`. The caller keeps `db` (closing the service does not dispose it).
 *
 * @example
 * const sql = await fromDb0(createDatabase(betterSqlite3({ path: "./content.db" })));
 */
export async function fromDb0(db: Db0Database): Promise<Sql> {
  const refuse = (why: string) =>
    new Error(
      `contentsvc: invalid option database: ${why}. Pass a db0 Database of better-sqlite3, node-sqlite, bun-sqlite or postgresql, a database URL, or openDatabase(url)`,
    );
  if (db.dialect === "sqlite" || db.dialect === "libsql") {
    const [{ rawSqliteOf }, { sqliteOn }] = await Promise.all([import("./sqlite-drivers.js"), import("./sqlite.js")]);
    const raw = await rawSqliteOf(db);
    if (!raw) throw refuse(`the db0 connector ${db.connector} is not a synchronous SQLite engine`);
    return { ...sqliteOn(raw), close: async () => {} };
  }
  if (db.dialect === "postgresql") {
    if (db.connector !== "postgresql") throw refuse(`the db0 connector ${db.connector} is not supported`);
    const { postgresOnClient } = await import("./postgres-client.js");
    return postgresOnClient((await db.getInstance()) as never, db);
  }
  throw refuse(`the ${db.dialect} dialect is not supported`);
}
