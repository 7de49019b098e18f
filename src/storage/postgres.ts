/**
 * PostgreSQL with a pg Pool, exposed through a db0 connector (db0 0.4's own postgresql connector
 * holds a single client, which cannot isolate transactions nor recover from a server restart).
 */
import { createDatabase, type Connector } from "db0";
import pg from "pg";
import { normalizeParams, toPostgresPlaceholders, type Sql, type SqlValue } from "./sql.js";
import { mapDriverError } from "./driver-errors.js";

// COUNT(*) and BIGINT columns come back as numbers, as they do on SQLite.
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20) return (v: string) => Number.parseInt(v, 10);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** Connects a pool to `url` (postgres://…) and checks it answers. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // An idle client dropped by a server restart must not crash the process; the pool replaces it.
  pool.on("error", () => {});

  const query = async (client: pg.Pool | pg.PoolClient, sql: string, p?: SqlValue[]) => {
    try {
      return await client.query(toPostgresPlaceholders(sql), normalizeParams("postgresql", p));
    } catch (error) {
      throw mapDriverError(error);
    }
  };
  const on = (client: pg.Pool | pg.PoolClient): Omit<Sql, "transaction" | "close" | "db0"> => ({
    dialect: "postgresql",
    all: async <T>(s: string, p?: SqlValue[]) => (await query(client, s, p)).rows as T[],
    get: async <T>(s: string, p?: SqlValue[]) => (await query(client, s, p)).rows[0] as T | undefined,
    run: async (s: string, p?: SqlValue[]) => ({ changes: (await query(client, s, p)).rowCount ?? 0 }),
    exec: async (s: string) => {
      await query(client, s);
    },
  });

  const connector: Connector<pg.Pool> = {
    name: "postgresql-pool",
    dialect: "postgresql",
    getInstance: () => pool,
    exec: (s) => pool.query(s),
    prepare: (s) => {
      const stmt = {
        bind: () => stmt,
        all: async (...p: SqlValue[]) => (await query(pool, s, p)).rows,
        run: async (...p: SqlValue[]) => ({ success: ((await query(pool, s, p)).rowCount ?? 0) > 0 }),
        get: async (...p: SqlValue[]) => (await query(pool, s, p)).rows[0],
      };
      return stmt as never;
    },
    dispose: () => pool.end(),
  };
  const db0 = createDatabase(connector);

  const sql: Sql = {
    ...on(pool),
    db0,
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw mapDriverError(error);
      }
      // A checked-out client has no pool listener: a connection lost between two queries of the
      // transaction would be an uncaught 'error' and crash the process. The next query fails
      // (mapped to 503) and release(lost) drops the client from the pool.
      let lost: Error | undefined;
      const onLost = (error: Error) => (lost = error);
      client.on("error", onLost);
      const tx: Sql = { ...on(client), db0, transaction: (inner) => inner(tx), close: async () => {} };
      try {
        await client.query("BEGIN");
        const result = await fn(tx);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw mapDriverError(error);
      } finally {
        client.removeListener("error", onLost);
        client.release(lost);
      }
    },
    async close() {
      await pool.end();
    },
  };
  await sql.get("SELECT 1 AS ok");
  return sql;
}
