/**
 * PostgreSQL with a pg Pool, exposed through a db0 connector (db0 0.4's own postgresql connector
 * holds a single client, which cannot isolate transactions nor recover from a server restart).
 */
import { createDatabase, type Connector } from "db0";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { BUDGET_READ_CONNECTIONS, normalizeParams, toPostgresPlaceholders, type ListenHandlers, type Sql, type SqlValue } from "./sql.js";
import { mapDriverError } from "./driver-errors.js";
import { overQueryBudget } from "../core/entry-query.js";

/** COUNT(*) and BIGINT columns come back as numbers, as they do on SQLite. */
export const PG_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20) return (v: string) => Number.parseInt(v, 10);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** Connects a pool to `url` (postgres://…) and checks it answers. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types: PG_TYPES });
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

  // Budgeted reads go through their own connections, whose statement_timeout the server applies to
  // every statement: no transaction and no SET per read, so a page and its count still run side by
  // side in two round trips. One small pool per budget (a service uses one), opened on first use.
  const budgetPools = new Map<number, { pool: pg.Pool; sql: Sql }>();
  const budgetSql = (ms: number): Sql => {
    const timeout = Math.max(1, Math.floor(ms));
    let budget = budgetPools.get(timeout);
    if (!budget) {
      const readPool = new pg.Pool({ connectionString: url, max: BUDGET_READ_CONNECTIONS, types: PG_TYPES, statement_timeout: timeout });
      readPool.on("error", () => {});
      budget = { pool: readPool, sql: { ...on(readPool), db0, transaction: (fn) => sql.transaction(fn), close: async () => {} } };
      budgetPools.set(timeout, budget);
    }
    return budget.sql;
  };

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
    async withStatementTimeout<T>(ms: number, fn: (tx: Sql) => Promise<T>): Promise<T> {
      try {
        return await fn(budgetSql(ms));
      } catch (error) {
        // query_canceled: on these connections only their statement_timeout cancels (a server
        // shutdown is 57P01).
        if ((error as { code?: unknown })?.code === "57014") throw overQueryBudget(ms);
        throw error;
      }
    },
    async close() {
      await Promise.all([pool, ...[...budgetPools.values()].map((b) => b.pool)].map((p) => p.end()));
    },
    listen: (channel, handlers) => listen(url, channel, handlers),
  };
  await sql.get("SELECT 1 AS ok");
  return sql;
}

/**
 * A LISTEN connection is silent while nothing changes, so a dead one (a half-open TCP connection
 * after a network fault), or one that never receives anything (behind a pooler in transaction
 * mode), would go unnoticed. So the connection notifies itself every HEARTBEAT_MS and counts as
 * listening only from the first heartbeat it received until one fails to arrive by the next: a
 * lost connection is reported at once (socket closed) or within 2 × HEARTBEAT_MS (silence). It
 * is opened again after RETRY_MS, doubling up to MAX_RETRY_MS.
 */
const HEARTBEAT_MS = 1000;
const RETRY_MS = 100;
const MAX_RETRY_MS = 5000;
const BEAT = "beat:";

function listen(url: string, channel: string, { message, state }: ListenHandlers): () => Promise<void> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry = RETRY_MS;
  let reconnect: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lose = (client: pg.Client) => {
    if (current !== client) return;
    current = undefined;
    clearInterval(heartbeat);
    client.end().catch(() => {});
    state(false);
    if (stopped) return;
    reconnect = setTimeout(connect, retry);
    reconnect.unref();
    retry = Math.min(retry * 2, MAX_RETRY_MS);
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: MAX_RETRY_MS, query_timeout: HEARTBEAT_MS, application_name: "contentsvc-listen" });
    current = client;
    const token = `${BEAT}${randomUUID()}:`;
    let sent = 0;
    let received = 0;
    client.on("error", () => lose(client));
    client.on("end", () => lose(client));
    client.on("notification", (n) => {
      if (n.channel !== channel) return;
      const payload = n.payload ?? "";
      if (!payload.startsWith(BEAT)) return message(payload);
      if (payload !== `${token}${sent}` || current !== client) return; // another instance's, or late
      if (received === 0) {
        retry = RETRY_MS;
        state(true);
      }
      received = sent;
    });
    const beat = () => {
      if (received < sent) return lose(client); // the previous one never came back
      client.query("SELECT pg_notify($1, $2)", [channel, `${token}${++sent}`]).catch(() => lose(client));
    };
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      lose(client);
      client.end().catch(() => {});
      return;
    }
    if (current !== client) {
      client.end().catch(() => {}); // stopped meanwhile
      return;
    }
    beat();
    heartbeat = setInterval(beat, HEARTBEAT_MS);
    heartbeat.unref();
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(reconnect);
    clearInterval(heartbeat);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
