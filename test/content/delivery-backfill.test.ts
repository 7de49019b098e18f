/**
 * The background filler of stored delivery JSON (services/delivery-backfill.ts): a database
 * upgraded with entries that have no stored body gets every body filled after start; a field
 * rename on a collection of thousands of entries renders nothing inside its own transaction, and
 * the bodies follow in the background; reads before a fill completes are correct (rendered from
 * the row), and entry writes racing a fill never leave a body that differs from its entry. A
 * failing pass is logged and retried, never thrown at anyone; a row that cannot be rendered is
 * skipped. A read that finds bodies missing signals the filler (at most one pass per retry delay);
 * the command line's service runs no start-up pass; close stops within the batch in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, silentLogger, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { createService } from "../../src/service.js";
import { createDeliveryBackfill } from "../../src/services/delivery-backfill.js";
import { listEntries, updateEntry } from "../../src/services/entries.js";
import { getCollection } from "../../src/services/collections.js";
import { fieldsFingerprint, renderDelivery, type RawEntryRow } from "../../src/storage/entry-deliveries.js";
import { newRowId } from "../../src/storage/ids.js";
import type { Sql } from "../../src/storage/sql.js";

const ENTRIES = 3000;

it("keeps the fields fingerprint of bodies stored by earlier versions (sha256 of [[name, type], …], base64url, 22 characters)", () => {
  const fields = [{ name: "title", type: "string" }, { name: "views", type: "number" }] as Parameters<typeof fieldsFingerprint>[0]["fields"];
  expect(fieldsFingerprint({ fields })).toBe("aaFta4TXgmG9ym7FH2gOH5");
});

describe.each(drivers)("the stored delivery JSON filler on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let wsId: string;
  let spelled = 0;

  /** The list read with `query`, its parameter names spelled anew each time so the response cache never answers. */
  const read = async (query = "limit=50&sort=-title") => {
    const n = ++spelled;
    const spell = (key: string) => [...key].map((c, i) => ((n >> i % 12) & 1 ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
    const q = query.split("&").map((part) => spell(part.slice(0, part.indexOf("="))) + part.slice(part.indexOf("="))).join("&");
    const res = await t.request(`/api/v1/posts?${q}`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const general = async (query = "limit=50&sort=-title") => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    return JSON.stringify(await listEntries(t.svc.context, posts, new URLSearchParams(query), { publishedOnly: true }));
  };
  const count = async (sql: string, params: string[] = []) => Number((await t.svc.context.sql.get<{ n: number }>(sql, params))!.n);
  const published = () => count("SELECT COUNT(*) AS n FROM entries WHERE status = 'published'");
  /**
   * Every stored body under the current fields is exactly what its entry's row renders to, and no
   * unpublished entry has one. Returns how many there are.
   */
  const storedAndCurrent = async () => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    const rows = await t.svc.context.sql.all<RawEntryRow & { body: string }>(
      `SELECT e.id, e.data, e.published_at, e.created_by, e.created_at, e.updated_at, d.body FROM entry_deliveries d JOIN entries e ON e.id = d.entry_id
       WHERE e.status = 'published' AND d.shape = ?`,
      [fieldsFingerprint(posts)],
    );
    for (const row of rows) expect(row.body).toBe(renderDelivery(posts, row));
    expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries d JOIN entries e ON e.id = d.entry_id WHERE e.status <> 'published'")).toBe(0);
    return rows.length;
  };

  beforeAll(async () => {
    t = await startTestServer(driver);
    // The start-up pass done first: a pass over posts beginning later would hold back the signals of reads (one pass per retry delay).
    await t.svc.context.deliveryBackfill.idle();
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    const fields = [
      { name: "title", type: "string" },
      { name: "views", type: "number" },
      { name: "meta", type: "json" },
    ];
    expect((await t.request("/api/dashboard/collections", { method: "POST", token: owner, json: { name: "posts", access: "public", fields } })).status).toBe(201);
    const posts = await getCollection(t.svc.context, wsId, "posts");
    // Entries as an earlier version left them: rows only, no stored body (one in ten a draft).
    const now = new Date().toISOString();
    for (let i = 0; i < ENTRIES; i += 500) {
      const rows = Array.from({ length: Math.min(500, ENTRIES - i) }, (_, j) => {
        const n = i + j;
        const status = n % 10 === 0 ? "draft" : "published";
        return [newRowId(), wsId, posts.id, status, JSON.stringify({ title: `post ${n}`, views: n % 97, meta: { n, tags: ["ü", "x"] } }), status === "published" ? now : null, "u1", now, now];
      });
      await t.svc.context.sql.run(
        `INSERT INTO entries (id, workspace_id, collection_id, status, data, published_at, created_by, created_at, updated_at) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
        rows.flat(),
      );
    }
    await t.svc.context.deliveryBackfill.idle();
  }, 60_000);
  afterAll(() => t?.close());

  it("fills every missing body of an upgraded database after start, and those a read finds missing; reads before are rendered from the rows", async () => {
    expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries")).toBe(0);
    const options = { dataDir: t.db.dataDir, database: t.db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() };
    // The command line's service, started on this database, leaves the start-up pass to the server.
    const cli = await createService(options, { deliveryBackfill: "changes" });
    try {
      await cli.context.deliveryBackfill.idle();
    } finally {
      await cli.close();
    }
    expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries")).toBe(0);

    // A service started on this database (an upgrade's first start) fills them in the background.
    const next = await createService(options);
    try {
      await next.context.deliveryBackfill.idle();
    } finally {
      await next.close();
    }
    expect(await storedAndCurrent()).toBe(await published());
    expect(await read()).toBe(await general());

    // Bodies gone behind this instance's back (as after another process's change): a read renders
    // the rows, and only signals the filler, which fills them apart from the read.
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    expect(await read()).toBe(await general());
    await t.svc.context.deliveryBackfill.idle();
    expect(await storedAndCurrent()).toBe(await published());
    // Signalled again within the retry delay: no second pass over the collection.
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    expect(await read()).toBe(await general());
    await t.svc.context.deliveryBackfill.idle();
    expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries")).toBe(0);
    t.svc.context.deliveryBackfill.fill((await getCollection(t.svc.context, wsId, "posts")).id);
    await t.svc.context.deliveryBackfill.idle();
    expect(await storedAndCurrent()).toBe(await published());
  }, 60_000);

  it("renames a field without rendering any entry in the change's transaction; the bodies follow, reads correct meanwhile", async () => {
    expect(await storedAndCurrent()).toBe(await published());
    // Every statement of every transaction through the service's handle, per transaction.
    const sql: Sql = t.svc.context.sql;
    const transaction = sql.transaction;
    const transactions: string[][] = [];
    sql.transaction = <T>(fn: (tx: Sql) => Promise<T>) =>
      transaction.call(sql, (tx: Sql) => {
        const seen: string[] = [];
        transactions.push(seen);
        const spy: Sql = {
          ...tx,
          all: (s, p) => (seen.push(s), tx.all(s, p)),
          get: (s, p) => (seen.push(s), tx.get(s, p)),
          run: (s, p) => (seen.push(s), tx.run(s, p)),
          exec: (s) => (seen.push(s), tx.exec(s)),
          transaction: (inner) => inner(spy),
        };
        return fn(spy);
      }) as Promise<T>;
    try {
      const res = await t.request("/api/dashboard/collections/posts", { method: "PATCH", token: owner, json: { rename: { from: "views", to: "reads" } } });
      expect(res.status).toBe(200);
    } finally {
      sql.transaction = transaction;
    }
    const change = transactions.filter((statements) => statements.some((s) => /^\s*UPDATE collections\b/i.test(s)));
    expect(change).toHaveLength(1);
    expect(change[0]!.filter((s) => /entry_deliveries/i.test(s))).toEqual([]);

    // Right after the change, whatever the filler has done yet: the renamed field, byte for byte.
    const items = JSON.parse(await read()).data as Record<string, unknown>[];
    expect(items.every((e) => "reads" in e && !("views" in e))).toBe(true);
    expect(await read("limit=50&sort=reads")).toBe(await general("limit=50&sort=reads"));

    await t.svc.context.deliveryBackfill.idle();
    expect(await storedAndCurrent()).toBe(await published());
    expect(await read("limit=50&sort=-reads")).toBe(await general("limit=50&sort=-reads"));
  }, 60_000);

  it("never keeps a body older than its entry when entry writes race a fill", async () => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    const ids = (await t.svc.context.sql.all<{ id: string }>("SELECT id FROM entries WHERE status = 'published' ORDER BY id LIMIT 60")).map((r) => r.id);
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    t.svc.context.deliveryBackfill.fill(posts.id);
    // Updates, unpublishes and republishes spread over the fill's batches.
    for (const [i, id] of ids.entries()) {
      const change = i % 3 === 0 ? { title: `changed ${i}` } : i % 3 === 1 ? { _status: "draft" } : { reads: 1000 + i };
      await updateEntry(t.svc.context, wsId, "posts", id, change);
      if (i % 3 === 1) await updateEntry(t.svc.context, wsId, "posts", id, { _status: "published", title: `back ${i}` });
      await new Promise((r) => setImmediate(r));
    }
    await t.svc.context.deliveryBackfill.idle();
    expect(await storedAndCurrent()).toBe(await published());
    expect(await read("limit=100&sort=-reads")).toBe(await general("limit=100&sort=-reads"));
  }, 60_000);

  it("logs a failed pass and retries it later", async () => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    const sql = t.svc.context.sql;
    let failures = 2;
    const failing: Sql = { ...sql, transaction: (fn) => (failures-- > 0 ? Promise.reject(new Error("database is busy")) : sql.transaction(fn)) };
    const warnings: string[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args.join(" ")) } as unknown as typeof t.svc.context.logger;
    const filler = createDeliveryBackfill({ db: t.svc.context.db, logger }, failing, 20);
    try {
      filler.fill(posts.id);
      await filler.idle();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`collection ${posts.id} could not be filled, retried in 0.02 s`);
      expect(warnings[0]).toContain("database is busy");
      expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries")).toBe(0);
      await expect.poll(() => warnings.length).toBe(2);
      await expect.poll(() => count("SELECT COUNT(*) AS n FROM entry_deliveries"), { timeout: 10_000 }).toBe(await published());
      await filler.idle();
      expect(await storedAndCurrent()).toBe(await published());
    } finally {
      await filler.close();
    }
  }, 60_000);

  it("skips a row it cannot render, logged once, and stores the rest of its batch", async () => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    // Parses, but nests too deep to serialize again: a damaged row.
    const depth = 200_000;
    const bad = newRowId();
    const now = new Date().toISOString();
    await t.svc.context.sql.run(
      "INSERT INTO entries (id, workspace_id, collection_id, status, data, published_at, created_by, created_at, updated_at) VALUES (?, ?, ?, 'published', ?, ?, 'u1', ?, ?)",
      [bad, wsId, posts.id, `{"meta":${"[".repeat(depth)}${"]".repeat(depth)}}`, now, now, now],
    );
    const warnings: string[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args.join(" ")) } as unknown as typeof t.svc.context.logger;
    const filler = createDeliveryBackfill({ db: t.svc.context.db, logger }, t.svc.context.sql, 20);
    try {
      filler.fill(posts.id);
      await filler.idle();
      filler.fill(posts.id);
      await filler.idle();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`entry ${bad} could not be rendered, skipped`);
      expect(await storedAndCurrent()).toBe((await published()) - 1);
      expect(await count("SELECT COUNT(*) AS n FROM entry_deliveries WHERE entry_id = ?", [bad])).toBe(0);
    } finally {
      await filler.close();
      await t.svc.context.sql.run("DELETE FROM entries WHERE id = ?", [bad]);
    }
  }, 60_000);

  it("runs a pass a field change asked for ahead of the start-up pass", async () => {
    const { db } = t.svc.context;
    const order: string[] = [];
    const collections = { ...db.collections, allIds: async () => ["start-1", "start-2", "changed"], byId: (id: string) => (order.push(id), Promise.resolve(undefined)) } as unknown as typeof db.collections;
    const filler = createDeliveryBackfill({ db: { ...db, collections }, logger: silentLogger() }, t.svc.context.sql, 20);
    try {
      filler.fill();
      filler.fill("changed");
      await filler.idle();
      expect(order).toEqual(["changed", "start-1", "start-2"]);
    } finally {
      await filler.close();
    }
  });

  it("closes within the batch in flight, takes no work once closing, and leaves the rest to a later pass", async () => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    const sql = t.svc.context.sql;
    let batches = 0;
    let atClose = 0;
    let closing: Promise<void> | undefined;
    // Close is asked for as the first batch starts, whatever the engine's speed: that batch is in flight.
    const counting: Sql = {
      ...sql,
      transaction: (fn) => {
        batches++;
        if (!closing) {
          atClose = batches;
          closing = filler.close();
        }
        return sql.transaction(fn);
      },
    };
    const filler = createDeliveryBackfill({ db: t.svc.context.db, logger: silentLogger() }, counting, 20);
    filler.fill(posts.id);
    await expect.poll(() => atClose).toBeGreaterThan(0);
    filler.fill(posts.id);
    await closing;
    await filler.idle();
    expect(batches).toBe(atClose);
    const stored = await count("SELECT COUNT(*) AS n FROM entry_deliveries");
    expect(stored).toBeLessThanOrEqual(atClose * 200);
    expect(stored).toBeLessThan(await published());
    expect(await storedAndCurrent()).toBe(stored);
    // What is left is there for the next pass; reads are correct meanwhile.
    expect(await read("limit=100&sort=-title")).toBe(await general("limit=100&sort=-title"));
    t.svc.context.deliveryBackfill.fill(posts.id);
    await t.svc.context.deliveryBackfill.idle();
    expect(await storedAndCurrent()).toBe(await published());
  }, 60_000);
});
