/**
 * migrate() runs each missing id in order, not "everything above the highest": a database that
 * got 011 (webhook deliveries) before 009/010 (outbox, query indexes) — as when changes land in
 * another order than their ids — still gets 009 and 010, and 011 made its tables and columns.
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

  it("applies 011 without 009/010, and 009/010 still apply after it", async () => {
    db = await createTestDatabase(driver);
    sql = await openDatabase(db.url);
    const without = migrations.filter((m) => m.id !== 9 && m.id !== 10);
    expect(await migrate(sql, without)).toEqual(without.map((m) => m.id));
    const columns = await sql.all("SELECT log_deliveries, standard_webhooks, previous_secret_sealed, previous_secret_until FROM webhooks");
    expect(columns).toEqual([]);
    expect(await sql.all("SELECT id, seq, delivery_id FROM webhook_deliveries")).toEqual([]);
    expect(await migrate(sql)).toEqual([9, 10]);
    expect(await migrate(sql)).toEqual([]);
    expect(await sql.all("SELECT id FROM webhook_outbox")).toEqual([]);
  });
});
