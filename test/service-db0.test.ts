/**
 * The `database` option takes a db0 `Database` (STYLE 4): the service migrates it, writes in
 * transactions and serves what it wrote, on SQLite (the better-sqlite3 connector, or node-sqlite where better-sqlite3's native build does not load) and, when a test
 * PostgreSQL is configured, on db0's postgresql connector. Connectors it cannot run on are refused
 * at start with the alternatives named.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, type Connector, type Database } from "db0";
import betterSqlite3 from "db0/connectors/better-sqlite3";
import nodeSqlite from "db0/connectors/node-sqlite";
import postgresql from "db0/connectors/postgresql";
import { createService } from "../src/index.js";
import { createCollection } from "../src/services/collections.js";
import { createEntry } from "../src/services/entries.js";
import { OPERATOR } from "../src/core/principal.js";
import { createTestDatabase, PG_URL, type TestDatabase } from "./helpers/database.js";
import { silentLogger } from "./helpers/server.js";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "svc-db0-"));
  dirs.push(d);
  return d;
};
const pgDatabases: TestDatabase[] = [];
afterAll(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const db of pgDatabases.splice(0)) await db.cleanup();
});

/** better-sqlite3 where its native build loads (the Node the install built it for), else node:sqlite. */
async function sqliteConnector(): Promise<[string, () => Promise<Database>]> {
  try {
    const { default: Engine } = await import("better-sqlite3");
    new Engine(":memory:").close();
    return ["better-sqlite3", async () => createDatabase(betterSqlite3({ path: join(tmp(), "content.db") }))];
  } catch {
    return ["node-sqlite", async () => createDatabase(nodeSqlite({ path: join(tmp(), "content.db") }))];
  }
}

const connectors: [string, () => Promise<Database>][] = [await sqliteConnector()];
if (PG_URL) {
  connectors.push([
    "postgresql",
    async () => {
      const db = await createTestDatabase("postgresql");
      pgDatabases.push(db);
      return createDatabase(postgresql({ url: db.url }));
    },
  ]);
}

describe.each(connectors)("createService({ database: db0 %s Database })", (_name, open) => {
  it("migrates, writes in transactions and serves what it wrote; the caller keeps the Database", async () => {
    const db = await open();
    const svc = await createService({ dataDir: tmp(), database: db, blobs: "memory:", logger: silentLogger() });
    try {
      const ws = await svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
      await createCollection(svc.context, ws.id, { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] }, OPERATOR);
      // Writes at once: each waits for the other's transaction on the one connection.
      await Promise.all(["first", "second", "draft"].map((title) => createEntry(svc.context, ws.id, "posts", { title, _status: title === "draft" ? "draft" : "published" }, ws.id)));
      const res = await svc.fetch(new Request("http://demo.localhost/api/v1/posts?sort=title"));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { title: string }[]; meta: { total: number } };
      expect(body.data.map((e) => e.title)).toEqual(["first", "second"]);
      expect(body.meta.total).toBe(2);
    } finally {
      await svc.close();
    }
    // The service's tables are in the caller's database, which the service left open.
    expect(db.disposed).toBe(false);
    const rows = (await db.sql`SELECT COUNT(*) AS n FROM entries`).rows as { n: number | string }[];
    expect(Number(rows[0]!.n)).toBe(3);
    await db.dispose();
  });

  it("rolls a failed transaction back without taking other statements with it", async () => {
    const db = await open();
    const svc = await createService({ dataDir: tmp(), database: db, blobs: "memory:", logger: silentLogger() });
    try {
      const sql = svc.context.sql;
      await sql.exec("CREATE TABLE t (n INTEGER)");
      const failed = sql.transaction(async (tx) => {
        await tx.run("INSERT INTO t (n) VALUES (?)", [1]);
        await new Promise((r) => setTimeout(r, 20));
        throw new Error("boom");
      });
      // Issued while the transaction is open: it must not be swept into it and rolled back.
      const outside = sql.run("INSERT INTO t (n) VALUES (?)", [2]);
      await expect(failed).rejects.toThrow("boom");
      expect(await outside).toEqual({ changes: 1 });
      expect(await sql.all("SELECT n FROM t")).toEqual([{ n: 2 }]);
    } finally {
      await svc.close();
      await db.dispose();
    }
  });
});

describe("createService({ database: db0 Database }) it cannot run on", () => {
  const fake = (dialect: "sqlite" | "mysql" | "postgresql", name: string, instance: unknown): Database =>
    createDatabase({ name, dialect, getInstance: () => instance, exec: () => {}, prepare: () => ({}) as never } satisfies Connector);

  it.each([
    ["an asynchronous SQLite connector", fake("sqlite", "sqlite3", { prepare: () => ({ get: () => Promise.resolve({ ok: 1 }) }), exec: () => {} }), /connector sqlite3 is not a synchronous SQLite engine/],
    ["another PostgreSQL connector", fake("postgresql", "neon", {}), /connector neon is not supported/],
    ["MySQL", fake("mysql", "mysql2", {}), /mysql dialect is not supported/],
  ])("refuses %s, naming what it takes", async (_what, db, message) => {
    const error = createService({ dataDir: tmp(), database: db, blobs: "memory:", logger: silentLogger() });
    await expect(error).rejects.toThrow(message);
    await expect(error).rejects.toThrow(/invalid option database: .*a database URL, or openDatabase\(url\)/);
  });
});
