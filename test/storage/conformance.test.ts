/**
 * Storage conformance: the same tests on every driver (SQLite always, PostgreSQL on CI).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { isUniqueViolation } from "../../src/storage/driver-errors.js";
import { createWorkspaceRepo } from "../../src/storage/workspaces.js";
import type { Sql } from "../../src/storage/sql.js";
import { createTestDatabase, drivers, type DriverName, type TestDatabase } from "../helpers/database.js";
import { availableSqliteDrivers, type SqliteDriverName } from "../../src/storage/sqlite-drivers.js";
import { PAGE_SIZE, openSqlite } from "../../src/storage/sqlite.js";

// Every SQLite engine this runtime offers, and PostgreSQL when configured.
const targets: [string, DriverName, SqliteDriverName | undefined][] = [
  ...availableSqliteDrivers().map((engine): [string, DriverName, SqliteDriverName] => [`sqlite (${engine})`, "sqlite", engine]),
  ...drivers.filter((d) => d === "postgresql").map((d): [string, DriverName, undefined] => [d, d, undefined]),
];

describe.each(targets)("storage on %s", (_name, driver, engine) => {
  let db: TestDatabase;
  const open: Sql[] = [];
  const connect = async () => {
    const sql = engine ? await openSqlite(db.url, engine) : await openDatabase(db.url);
    open.push(sql);
    return sql;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    await db?.cleanup();
  });

  it("migrates once, and a second run applies nothing", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    expect(await migrate(sql)).toEqual(migrations.map((m) => m.id));
    expect(await migrate(sql)).toEqual([]);
    const rows = await sql.all<{ id: number }>("SELECT id FROM schema_migrations");
    expect(rows.map((r) => Number(r.id))).toEqual(migrations.map((m) => m.id));
  });

  it("migrates exactly once when several processes start at the same moment", async () => {
    db = await createTestDatabase(driver);
    const conns = await Promise.all([connect(), connect(), connect()]);
    const results = await Promise.all(conns.map((c) => migrate(c)));
    expect(results.flat().sort((a, b) => a - b)).toEqual(migrations.map((m) => m.id));
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
  });

  it("rolls a failed transaction back whole and commits a good one", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    await migrate(sql);
    const ws = createWorkspaceRepo(sql);
    await expect(
      sql.transaction(async (tx) => {
        await tx.run("INSERT INTO workspaces (id, slug, name, identity, created_at) VALUES (?, ?, ?, ?, ?)", ["w1", "one", "One", false, "2026-01-01T00:00:00.000Z"]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await ws.count()).toBe(0);
    await sql.transaction(async (tx) => {
      await tx.run("INSERT INTO workspaces (id, slug, name, identity, created_at) VALUES (?, ?, ?, ?, ?)", ["w1", "one", "One", true, "2026-01-01T00:00:00.000Z"]);
    });
    expect(await ws.count()).toBe(1);
    const row = await sql.get<{ identity: number; n: number }>("SELECT identity, (SELECT COUNT(*) FROM workspaces) AS n FROM workspaces");
    expect(row).toEqual({ identity: 1, n: 1 });
  });

  it.runIf(driver === "sqlite")("creates a new SQLite file with 2 KiB pages and keeps an existing file's page size", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    await migrate(sql);
    expect((await sql.get<{ page_size: number }>("PRAGMA page_size"))?.page_size).toBe(PAGE_SIZE);
    await sql.close();
    open.splice(open.indexOf(sql), 1);

    // A database made before (SQLite's default 4096) is opened as it is, and works.
    const older = await createTestDatabase(driver);
    try {
      const raw = await openSqlite(older.url, engine);
      await migrate(raw);
      await raw.exec("PRAGMA journal_mode = DELETE");
      await raw.exec("PRAGMA page_size = 4096");
      await raw.exec("VACUUM");
      await raw.close();
      const reopened = await openSqlite(older.url, engine);
      try {
        expect(await migrate(reopened)).toEqual([]);
        expect((await reopened.get<{ page_size: number }>("PRAGMA page_size"))?.page_size).toBe(4096);
        expect((await reopened.get<{ journal_mode: string }>("PRAGMA journal_mode"))?.journal_mode).toBe("wal");
        await createWorkspaceRepo(reopened).create({ slug: "old", hosts: ["old.example.com"] });
        expect(await createWorkspaceRepo(reopened).count()).toBe(1);
      } finally {
        await reopened.close();
      }
    } finally {
      await older.cleanup();
    }
  });

  it("reports unique violations recognisably", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    await migrate(sql);
    const insert = () =>
      sql.run("INSERT INTO workspaces (id, slug, name, identity, created_at) VALUES (?, ?, ?, ?, ?)", ["w1", "one", "One", 0, "x"]);
    await insert();
    const error = await insert().catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("stores workspaces with several hosts and finds them by host", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    await migrate(sql);
    const ws = createWorkspaceRepo(sql);
    const a = await ws.create({ slug: "alpha", hosts: ["Alpha.Example.com", "alpha.localhost:3000"] });
    expect(a.hosts).toEqual(["alpha.example.com", "alpha.localhost"]);
    expect((await ws.byHost("alpha.example.com"))?.id).toBe(a.id);
    expect(await ws.byHost("beta.example.com")).toBeUndefined();
    await expect(ws.create({ slug: "beta", hosts: ["alpha.example.com"] })).rejects.toMatchObject({ status: 409, message: "Host alpha.example.com already belongs to a workspace" });
    await expect(ws.create({ slug: "alpha", hosts: ["other.example.com"] })).rejects.toMatchObject({ status: 409 });
    await expect(ws.create({ slug: "Bad Slug", hosts: ["x.example.com"] })).rejects.toMatchObject({ status: 400 });
    expect((await ws.list()).map((w) => w.slug)).toEqual(["alpha"]);
  });

  it("handles concurrent writers without losing a write", async () => {
    db = await createTestDatabase(driver);
    const sql = await connect();
    await migrate(sql);
    const ws = createWorkspaceRepo(sql);
    await Promise.all(Array.from({ length: 20 }, (_, i) => ws.create({ slug: `w${i}`, hosts: [`w${i}.example.com`] })));
    expect(await ws.count()).toBe(20);
  });
});

describe.each(drivers)("driver errors on %s", (driver) => {
  it("maps a foreign-key violation to a 409, never a 500", async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    try {
      await migrate(sql);
      const error = await sql
        .run("INSERT INTO workspace_hosts (host, workspace_id) VALUES (?, ?)", ["x.example.com", "no-such-workspace"])
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 409 });
    } finally {
      await sql.close();
      await db.cleanup();
    }
  });
});
