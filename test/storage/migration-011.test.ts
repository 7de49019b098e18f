/**
 * Migration 011 (webhook deliveries) applies on a database that has 001–008 but not 009/010 (ids
 * reserved for other changes), and a later 009 still applies after it: migrate() runs each
 * missing id in order, not "everything above the highest".
 */
import { afterEach, describe, expect, it } from "vitest";
import { migrate } from "../../src/storage/migrate.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { openDatabase } from "../../src/storage/open.js";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import type { Sql } from "../../src/storage/sql.js";

describe.each(drivers)("migration 011 on %s", (driver) => {
  let db: TestDatabase | undefined;
  let sql: Sql | undefined;
  afterEach(async () => {
    await sql?.close();
    sql = undefined;
    await db?.cleanup();
  });

  it("applies without 009/010, and a later 009 still applies", async () => {
    db = await createTestDatabase(driver);
    sql = await openDatabase(db.url);
    const upTo8 = migrations.filter((m) => m.id <= 8);
    expect(await migrate(sql, upTo8)).toEqual(upTo8.map((m) => m.id));
    expect(migrations.some((m) => m.id === 9 || m.id === 10)).toBe(false);
    expect(await migrate(sql)).toEqual([11]);
    const columns = await sql.all("SELECT log_deliveries, standard_webhooks, previous_secret_sealed, previous_secret_until FROM webhooks");
    expect(columns).toEqual([]);
    expect(await sql.all("SELECT id, seq, delivery_id FROM webhook_deliveries")).toEqual([]);
    const later = { id: 9, name: "later-branch", sql: () => "CREATE TABLE later_branch (id TEXT PRIMARY KEY);" };
    expect(await migrate(sql, [...migrations, later])).toEqual([9]);
  });
});
