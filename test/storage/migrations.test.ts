/**
 * Upgrades of existing databases. migrate() runs each missing id in order, not "everything above
 * the highest": a database that got 011 (webhook deliveries) before 009/010 (outbox, query
 * indexes) — as when changes land in another order than their ids — still gets 009 and 010, and
 * 011 made its tables and columns. Migration 015 moves SQLite's stored delivery JSON to a table
 * keyed by the entry's rowid: a database holding bodies in 013's table upgrades with the table
 * recreated empty (the bodies are derived and refilled by reads), the staleness trigger in place,
 * and the entry untouched; PostgreSQL keeps its table and its bodies. Migration 017 gives each
 * dashboard token issued before it a refresh-token family of its own, so nobody is signed out.
 */
import { afterEach, describe, expect, it } from "vitest";
import { migrate } from "../../src/storage/migrate.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { openDatabase } from "../../src/storage/open.js";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import type { Sql } from "../../src/storage/sql.js";

describe.each(drivers)("migrations on %s", (driver) => {
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

  it("015 upgrades a database holding stored bodies", async () => {
    db = await createTestDatabase(driver);
    sql = await openDatabase(db.url);
    const before = migrations.filter((m) => m.id < 15);
    expect(await migrate(sql, before)).toEqual(before.map((m) => m.id));
    const now = new Date().toISOString();
    await sql.run("INSERT INTO workspaces (id, slug, name, created_at) VALUES ('w1', 'demo', 'Demo', ?)", [now]);
    await sql.run("INSERT INTO collections (id, workspace_id, name, created_at, updated_at) VALUES ('c1', 'w1', 'posts', ?, ?)", [now, now]);
    await sql.run(
      "INSERT INTO entries (id, workspace_id, collection_id, status, data, published_at, created_by, created_at, updated_at) VALUES ('e1', 'w1', 'c1', 'published', '{\"title\":\"a\"}', ?, 'u1', ?, ?)",
      [now, now, now],
    );
    await sql.run("INSERT INTO entry_deliveries (entry_id, shape, body) VALUES ('e1', 's', '{\"id\":\"e1\"}')");

    const through15 = migrations.filter((m) => m.id <= 15);
    expect(await migrate(sql, through15)).toEqual([15]);
    expect(await migrate(sql, through15)).toEqual([]);
    const bodies = await sql.all<{ entry_id: string }>("SELECT entry_id FROM entry_deliveries");
    expect(bodies.map((b) => b.entry_id)).toEqual(driver === "sqlite" ? [] : ["e1"]);
    expect(await sql.get("SELECT id, data FROM entries")).toEqual({ id: "e1", data: '{"title":"a"}' });

    if (driver === "sqlite") {
      // The new table: keyed by the entry's rowid, dropped with the entry and by any change to it.
      await sql.run("INSERT INTO entry_deliveries (entry_rowid, entry_id, shape, body) SELECT rowid, id, 's', '{}' FROM entries");
      await sql.run("UPDATE entries SET data = '{\"title\":\"b\"}' WHERE id = 'e1'");
      expect(await sql.all("SELECT entry_id FROM entry_deliveries")).toEqual([]);
      await sql.run("INSERT INTO entry_deliveries (entry_rowid, entry_id, shape, body) SELECT rowid, id, 's', '{}' FROM entries");
      await sql.run("DELETE FROM entries WHERE id = 'e1'");
      expect(await sql.all("SELECT entry_id FROM entry_deliveries")).toEqual([]);
    }
  });

  it("016 counts the media and submission files already stored, then keeps the count with every write", async () => {
    db = await createTestDatabase(driver);
    sql = await openDatabase(db.url);
    const before = migrations.filter((m) => m.id < 16);
    await migrate(sql, before);
    const now = new Date().toISOString();
    await sql.run("INSERT INTO workspaces (id, slug, name, created_at) VALUES ('w1', 'demo', 'Demo', ?)", [now]);
    await sql.run("INSERT INTO media (id, workspace_id, filename, content_type, size, sha256, blob_key, created_at) VALUES ('m1', 'w1', 'a.png', 'image/png', 300, 'x', 'k', ?)", [now]);
    await sql.run("INSERT INTO forms (id, workspace_id, slug, name, created_at, updated_at) VALUES ('f1', 'w1', 'contact', 'Contact', ?, ?)", [now, now]);
    const files = (...sizes: number[]) => JSON.stringify(sizes.map((size, i) => ({ id: `u${i}`, field: "cv", filename: "cv.pdf", content_type: "application/pdf", size })));
    await sql.run("INSERT INTO submissions (id, workspace_id, form_id, files, submitted_at, updated_at) VALUES ('s1', 'w1', 'f1', ?, ?, ?)", [files(100, 20), now, now]);

    expect(await migrate(sql)).toEqual(migrations.filter((m) => m.id >= 16).map((m) => m.id));
    const usage = async () => (await sql!.all<{ kind: string; bytes: number | string }>("SELECT kind, bytes FROM upload_usage ORDER BY kind")).map((r) => [r.kind, Number(r.bytes)]);
    expect(await usage()).toEqual([["media", 300], ["submissions", 120]]);
    await sql.run("INSERT INTO submissions (id, workspace_id, form_id, files, submitted_at, updated_at) VALUES ('s2', 'w1', 'f1', ?, ?, ?)", [files(5), now, now]);
    await sql.run("UPDATE submissions SET files = ? WHERE id = 's1'", [files(100)]);
    await sql.run("DELETE FROM media WHERE id = 'm1'");
    expect(await usage()).toEqual([["media", 0], ["submissions", 105]]);
    await sql.run("DELETE FROM forms WHERE id = 'f1'");
    expect(await usage()).toEqual([["media", 0], ["submissions", 0]]);
  });

  it("017 makes each existing dashboard token a family of its own, unused", async () => {
    db = await createTestDatabase(driver);
    sql = await openDatabase(db.url);
    const before = migrations.filter((m) => m.id < 17);
    await migrate(sql, before);
    const now = new Date().toISOString();
    await sql.run("INSERT INTO workspaces (id, slug, name, created_at) VALUES ('w1', 'demo', 'Demo', ?)", [now]);
    await sql.run("INSERT INTO dashboard_users (id, workspace_id, email, password_hash, role, created_at, updated_at) VALUES ('u1', 'w1', 'a@example.com', 'x', 'owner', ?, ?)", [now, now]);
    for (const [hash, kind] of [["h1", "access"], ["h2", "refresh"]]) {
      await sql.run("INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, created_at, expires_at) VALUES (?, ?, 'w1', 'u1', 'owner', ?, ?)", [hash!, kind!, now, now]);
    }
    expect(await migrate(sql)).toEqual(migrations.filter((m) => m.id >= 17).map((m) => m.id));
    const rows = await sql.all("SELECT token_hash, family_id, used_at FROM dashboard_tokens ORDER BY token_hash");
    expect(rows).toEqual([
      { token_hash: "h1", family_id: "h1", used_at: null },
      { token_hash: "h2", family_id: "h2", used_at: null },
    ]);
  });
});
