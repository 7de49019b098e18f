/**
 * The SQL seam: one small interface over db0 connectors so repositories write `?`-placeholder SQL
 * once and run it on SQLite and PostgreSQL alike.
 *
 * db0 gives us the connectors; we add what db0 0.4 lacks for a server: statements prepared once
 * (SQLite hot paths), a real connection pool and transactions on PostgreSQL, and a write mutex on
 * SQLite (one connection, async callers).
 */
import type { Database as Db0Database } from "db0";
import { badRequest } from "../core/errors.js";
import { NUL_REFUSED } from "../core/nul.js";

export type Dialect = "sqlite" | "postgresql";
export type SqlValue = string | number | boolean | null | undefined;

export interface SqlRunResult {
  changes: number;
}

/** What repositories talk to. Placeholders are always `?`. */
export interface Sql {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<SqlRunResult>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only: runs `fn` on connections whose statements the server stops after `ms` (their
   * `statement_timeout`); a stopped statement fails with a 503 naming the budget
   * (core/entry-query.ts overQueryBudget). No SQLite engine can stop a running statement, so
   * there the bounds are the query language's own (docs/content.md "What a query can cost").
   */
  withStatementTimeout?<T>(ms: number, fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** The db0 database underneath, for embedders who want it. */
  readonly db0: Db0Database | undefined;
  close(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on `channel` over a dedicated connection, reconnecting until stopped.
   * `state(true)` once listening, `state(false)` when the connection is lost or stops answering
   * (notifications may have been missed meanwhile). Returns the function that stops it.
   */
  listen?(channel: string, handlers: ListenHandlers): () => Promise<void>;
}

export interface ListenHandlers {
  message(payload: string): void;
  state(listening: boolean): void;
}

/**
 * Runs the reads of `fn` under a time budget where the engine can enforce one (PostgreSQL), else
 * simply runs them.
 *
 * @example
 * const page = await withQueryBudget(ctx.sql, 2000, (db) => entries.list(id, query, true, db));
 */
/**
 * Connections of PostgreSQL's budgeted read pool (storage/postgres.ts): list reads that run under
 * the query budget use these, beside the main pool.
 */
export const BUDGET_READ_CONNECTIONS = 5;

export function withQueryBudget<T>(db: Sql, ms: number, fn: (db: Sql) => Promise<T>): Promise<T> {
  return db.withStatementTimeout ? db.withStatementTimeout(ms, fn) : fn(db);
}

/** `?` → `$1, $2, …` for PostgreSQL. Our SQL never has `?` inside string literals. */
export function toPostgresPlaceholders(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/**
 * Booleans are stored as INTEGER 0/1 on both dialects, so one set of queries binds the same values.
 * A text value holding NUL is refused on both (PostgreSQL cannot store it; see core/nul.ts): the
 * last line behind the validators, which name the field, for callers that skip them.
 */
export function normalizeParams(_dialect: Dialect, params: SqlValue[] = []): (string | number | null)[] {
  return params.map((p) => {
    if (p === undefined) return null;
    if (typeof p === "boolean") return p ? 1 : 0;
    if (typeof p === "string" && p.includes("\0")) throw badRequest(`A text value ${NUL_REFUSED}`);
    return p;
  });
}

/** A promise-chain mutex: `run(fn)` runs after every earlier `run` settled. */
export function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = tail.then(fn, fn);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
