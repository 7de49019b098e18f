/**
 * SQLite through db0's better-sqlite3 connector: WAL, a busy timeout, statements prepared once,
 * and writes serialized so an async transaction never interleaves with another write.
 */
import { createDatabase } from "db0";
import betterSqlite3Connector from "db0/connectors/better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { dirname } from "node:path";
import { mkdirSync } from "node:fs";
import { createMutex, normalizeParams, type Sql, type SqlValue } from "./sql.js";
import { mapDriverError } from "./driver-errors.js";

const BUSY_WAIT_MS = 5000;

/** Opens (creating if needed) the SQLite file at `path`, or an in-memory database for ":memory:". */
export async function openSqlite(path: string): Promise<Sql> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db0 = createDatabase(
    betterSqlite3Connector(path === ":memory:" ? { name: ":memory:" } : { path }),
  );
  const raw = (await db0.getInstance()) as BetterSqlite3.Database;
  raw.pragma("journal_mode = WAL");
  raw.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
  raw.pragma("foreign_keys = ON");
  // WAL + NORMAL survives a process crash (SIGKILL); only an OS crash can lose the last commits.
  raw.pragma("synchronous = NORMAL");

  const statements = new Map<string, BetterSqlite3.Statement>();
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
    raw.pragma("busy_timeout = 0");
    try {
      for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
        try {
          raw.exec("BEGIN IMMEDIATE");
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw mapDriverError(error);
          await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
        }
      }
    } finally {
      raw.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
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
      return guard(() => ({ changes: prepare(sql).run(...params(p)).changes }));
    },
    async exec(sql: string) {
      guard(() => raw.exec(sql));
    },
  };

  const sql: Sql = {
    ...direct,
    db0,
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
          if (raw.inTransaction) raw.exec("ROLLBACK");
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
  return sql;
}
