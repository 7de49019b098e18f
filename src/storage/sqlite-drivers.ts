/**
 * The synchronous SQLite engines we run on, behind one tiny interface: the runtime's own
 * (`node:sqlite` on Node >= 22.5, `bun:sqlite` on Bun) so a current runtime needs no native addon,
 * and better-sqlite3 elsewhere (Node 20). db0 has connectors for all three; we use it to open them.
 */
import { createRequire } from "node:module";
import { createDatabase, type Database as Db0Database } from "db0";

export type SqliteDriverName = "better-sqlite3" | "node:sqlite" | "bun:sqlite";

export interface RawStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): { changes: number | bigint };
}

export interface RawSqlite {
  readonly driver: SqliteDriverName;
  prepare(sql: string): RawStatement;
  exec(sql: string): void;
  db0: Db0Database;
}

const isBun = () => typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
const hasNodeSqlite = () => {
  try {
    return Boolean(process.getBuiltinModule?.("node:sqlite"));
  } catch {
    return false;
  }
};

type BetterSqlite3 = typeof import("better-sqlite3");
let betterSqlite: BetterSqlite3 | null | undefined;
/**
 * better-sqlite3 is optional: absent, or built for another Node ABI, it is simply not offered
 * (null). The module that loaded is the one the connector is given: its own `import()` of the
 * CommonJS package would translate it to ESM a second time, at start-up (measured:
 * docs/benchmarks.md, "Figures behind code comments").
 */
const loadBetterSqlite = (): BetterSqlite3 | null => {
  if (betterSqlite === undefined) {
    try {
      const Database = createRequire(import.meta.url)("better-sqlite3") as BetterSqlite3;
      new Database(":memory:").close();
      betterSqlite = Database;
    } catch {
      betterSqlite = null;
    }
  }
  return betterSqlite;
};
const hasBetterSqlite = () => loadBetterSqlite() !== null;

/** Which engines this runtime offers, best first. */
export function availableSqliteDrivers(): SqliteDriverName[] {
  if (isBun()) return ["bun:sqlite"];
  const out: SqliteDriverName[] = [];
  if (hasNodeSqlite()) out.push("node:sqlite");
  if (hasBetterSqlite()) out.push("better-sqlite3");
  if (out.length === 0) {
    throw new Error("No SQLite engine: use Node >= 22.5 (node:sqlite), Bun, or install better-sqlite3 (npm install better-sqlite3)");
  }
  return out;
}

/** The runtime's own engine first (tests pass each engine explicitly to run the conformance suite). */
export function defaultSqliteDriver(): SqliteDriverName {
  return availableSqliteDrivers()[0]!;
}

/** Opens `path` (or ":memory:") with the named engine. */
export async function openRawSqlite(path: string, driver: SqliteDriverName = defaultSqliteDriver()): Promise<RawSqlite> {
  const memory = path === ":memory:";
  if (driver === "better-sqlite3") {
    const { default: connector } = await import("db0/connectors/better-sqlite3");
    const loaded = loadBetterSqlite();
    // A function is called for the module (the constructor itself is a function too).
    const lib = loaded ? () => loaded : undefined;
    const db0 = createDatabase(connector(memory ? { name: ":memory:", lib } : { path, lib }));
    const raw = (await db0.getInstance()) as unknown as {
      prepare(sql: string): RawStatement;
      exec(sql: string): void;
    };
    return { driver, db0, prepare: (s) => raw.prepare(s), exec: (s) => void raw.exec(s) };
  }
  if (driver === "node:sqlite") {
    const { default: connector } = await import("db0/connectors/node-sqlite");
    const db0 = createDatabase(connector(memory ? { name: ":memory:" } : { path }));
    const raw = (await db0.getInstance()) as unknown as { prepare(sql: string): RawStatement; exec(sql: string): void };
    return { driver, db0, prepare: (s) => raw.prepare(s), exec: (s) => raw.exec(s) };
  }
  const { default: connector } = await import("db0/connectors/bun-sqlite");
  const db0 = createDatabase(connector(memory ? { name: ":memory:" } : { path }));
  const raw = (await db0.getInstance()) as unknown as { prepare(sql: string): RawStatement; exec(sql: string): void };
  return {
    driver,
    db0,
    // bun:sqlite answers null for "no row"; the others undefined.
    prepare: (s) => {
      const stmt = raw.prepare(s);
      return { all: (...p) => stmt.all(...p), run: (...p) => stmt.run(...p), get: (...p) => stmt.get(...p) ?? undefined };
    },
    exec: (s) => raw.exec(s),
  };
}

/**
 * The engine under a db0 SQLite `Database` someone else opened, or undefined when it is not one of
 * the synchronous engines above (db0's sqlite3, libSQL and D1 connectors are asynchronous: their
 * statements report no changed-row count and cannot share our write serialization).
 */
export async function rawSqliteOf(db0: Db0Database): Promise<RawSqlite | undefined> {
  const raw = (await db0.getInstance()) as { prepare?: unknown; exec?: unknown } | null;
  if (!raw || typeof raw.prepare !== "function" || typeof raw.exec !== "function") return undefined;
  const engine = raw as { prepare(sql: string): RawStatement; exec(sql: string): unknown };
  try {
    // A synchronous engine answers at once with the row; an asynchronous one with a statement or a promise.
    const row = engine.prepare("SELECT 1 AS ok").get() as { ok?: unknown } | undefined;
    if (row?.ok !== 1) return undefined;
  } catch {
    return undefined;
  }
  const driver: SqliteDriverName = isBun() ? "bun:sqlite" : db0.connector === "node-sqlite" ? "node:sqlite" : "better-sqlite3";
  return {
    driver,
    db0,
    // bun:sqlite answers null for "no row"; the others undefined.
    prepare: (s) => {
      const stmt = engine.prepare(s);
      return { all: (...p) => stmt.all(...p), run: (...p) => stmt.run(...p), get: (...p) => stmt.get(...p) ?? undefined };
    },
    exec: (s) => void engine.exec(s),
  };
}
