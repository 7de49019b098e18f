/**
 * SQLite: WAL, a busy timeout, statements prepared once, and writes serialized so an async
 * transaction never interleaves with another write. The engine is the runtime's own where it has
 * one (sqlite-drivers.ts).
 */
import { dirname } from "node:path";
import { mkdirSync } from "node:fs";
import { PRIVATE_DIR_MODE, preparePrivateDatabaseFile } from "./private-files.js";
import { createMutex, normalizeParams, type Sql, type SqlValue } from "./sql.js";
import { mapDriverError } from "./driver-errors.js";
import { openRawSqlite, type RawSqlite, type RawStatement, type SqliteDriverName } from "./sqlite-drivers.js";

const BUSY_WAIT_MS = 5000;
/** Bytes per database page of a new database file (SQLite's default is 4096). */
export const PAGE_SIZE = 2048;

/** Opens (creating if needed) the SQLite file at `path`, or an in-memory database for ":memory:". */
export async function openSqlite(path: string, driver?: SqliteDriverName): Promise<Sql & { driver: SqliteDriverName }> {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    preparePrivateDatabaseFile(path);
  }
  return sqliteOn(await openRawSqlite(path, driver));
}

/**
 * The service's Sql over an open engine: the pragmas below, statements prepared once, and writes
 * serialized. Also how a db0 SQLite `Database` passed as the `database` option is used (from-db0.ts).
 */
export function sqliteOn(raw: RawSqlite): Sql & { driver: SqliteDriverName } {
  const { db0 } = raw;
  // Takes effect only on a new, empty file (an existing database keeps its page size): a commit
  // writes every page it touched to the WAL, and entries with their indexes touch ~15 pages, so
  // half-size pages halve what a write copies. Entries and their stored JSON are rowid tables
  // (migration 015), so a row longer than a page costs one overflow page when read, not every
  // search: only uncached lists of long entries read slower (docs/production.md, "SQLite
  // settings"; measured: docs/benchmarks.md, "Figures behind code comments").
  raw.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  raw.exec("PRAGMA foreign_keys = ON");
  // WAL + NORMAL survives a process crash (SIGKILL); only an OS crash can lose the last commits.
  raw.exec("PRAGMA synchronous = NORMAL");

  const statements = new Map<string, RawStatement>();
  const prepare = (sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = raw.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, stmt);
    }
    return stmt;
  };
  const params = (p?: SqlValue[]) => normalizeParams("sqlite", p);
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw mapDriverError(error);
    }
  };
  const writes = createMutex();

  // BEGIN IMMEDIATE takes the write lock across processes. Waiting for it with busy_timeout would
  // block the event loop (and deadlock two connections of one process), so poll asynchronously.
  const beginImmediate = async () => {
    const deadline = Date.now() + BUSY_WAIT_MS;
    raw.exec("PRAGMA busy_timeout = 0");
    try {
      for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
        try {
          raw.exec("BEGIN IMMEDIATE");
          return;
        } catch (error) {
          if (!isBusy(error) || Date.now() > deadline) throw mapDriverError(error);
          await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
        }
      }
    } finally {
      raw.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    }
  };

  const direct: Omit<Sql, "transaction" | "close" | "db0"> = {
    dialect: "sqlite",
    async all<T>(sql: string, p?: SqlValue[]) {
      return guard(() => prepare(sql).all(...params(p)) as T[]);
    },
    async get<T>(sql: string, p?: SqlValue[]) {
      return guard(() => prepare(sql).get(...params(p)) as T | undefined);
    },
    async run(sql: string, p?: SqlValue[]) {
      return guard(() => ({ changes: Number(prepare(sql).run(...params(p)).changes) }));
    },
    async exec(sql: string) {
      guard(() => raw.exec(sql));
    },
  };

  return {
    ...direct,
    db0,
    driver: raw.driver,
    // Outside a transaction a write waits for any open transaction, so it is never swept into it.
    run: (s, p) => writes.run(() => direct.run(s, p)),
    exec: (s) => writes.run(() => direct.exec(s)),
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      return writes.run(async () => {
        await beginImmediate();
        const tx: Sql = { ...direct, db0, transaction: (inner) => inner(tx), close: async () => {} };
        try {
          const result = await fn(tx);
          raw.exec("COMMIT");
          return result;
        } catch (error) {
          try {
            raw.exec("ROLLBACK");
          } catch {
            // no transaction left to roll back (COMMIT failed after SQLite ended it)
          }
          throw error;
        }
      });
    },
    async close() {
      await writes.run(async () => {
        statements.clear();
        await db0.dispose();
      });
    },
  };
}

function isBusy(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e.code === "SQLITE_BUSY" || (typeof e.errcode === "number" && (e.errcode & 0xff) === 5) || /database is locked|SQLITE_BUSY/i.test(e.message ?? "");
}
