/**
 * PostgreSQL over one pg `Client`: what db0's own postgresql connector holds, when an embedder
 * passes such a db0 `Database` as the `database` option. One connection cannot run a transaction
 * beside other statements, so every statement waits for the open transaction to end, except the
 * transaction's own (told apart by async context, so a helper called inside it never waits for it).
 * No statement budget, no change notifications and no reconnection: a URL gives the pool that has them.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database as Db0Database } from "db0";
import { createMutex, normalizeParams, toPostgresPlaceholders, type Sql, type SqlValue } from "./sql.js";
import { mapDriverError } from "./driver-errors.js";
import { PG_TYPES } from "./postgres.js";

/** The part of pg's `Client` used here. */
export interface PgClient {
  query(config: { text: string; values?: unknown[]; types?: unknown }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** The service's Sql on `client`; `close` leaves the client to its owner (the db0 `Database`). */
export function postgresOnClient(client: PgClient, db0: Db0Database): Sql {
  // The open transaction of this async context; `open` turns false at its end, so a timer started
  // inside it and firing later waits like any other statement.
  const transactions = new AsyncLocalStorage<{ open: boolean }>();
  const inTransaction = () => transactions.getStore()?.open === true;
  const queue = createMutex();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => (inTransaction() ? fn() : queue.run(fn));
  const query = async (text: string, p?: SqlValue[]) => {
    try {
      return await client.query({ text: toPostgresPlaceholders(text), values: normalizeParams("postgresql", p), types: PG_TYPES });
    } catch (error) {
      throw mapDriverError(error);
    }
  };
  const sql: Sql = {
    dialect: "postgresql",
    db0,
    all: <T>(s: string, p?: SqlValue[]) => serial(async () => (await query(s, p)).rows as T[]),
    get: <T>(s: string, p?: SqlValue[]) => serial(async () => (await query(s, p)).rows[0] as T | undefined),
    run: (s: string, p?: SqlValue[]) => serial(async () => ({ changes: (await query(s, p)).rowCount ?? 0 })),
    // No parameters: the simple query protocol, which runs several statements (migrations).
    exec: (s: string) =>
      serial(async () => {
        try {
          await client.query({ text: s });
        } catch (error) {
          throw mapDriverError(error);
        }
      }),
    transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      if (inTransaction()) return fn(sql);
      return queue.run(() => {
        const transaction = { open: true };
        return transactions.run(transaction, async () => {
          try {
            await query("BEGIN");
            const result = await fn(sql);
            await query("COMMIT");
            return result;
          } catch (error) {
            await query("ROLLBACK").catch(() => {});
            throw error;
          } finally {
            transaction.open = false;
          }
        });
      });
    },
    async close() {},
  };
  return sql;
}
