/**
 * Delivery lists are joined from stored entry JSON (migrations 013 and 015,
 * services/delivery.ts), written by entry writes in their own transaction and by the background
 * filler (services/delivery-backfill.ts), never by a read: byte for byte what serializing the
 * general path gives, and never stale: after an entry update, publish, unpublish or delete, and
 * after a field is renamed, added or removed, the very next uncached read shows the new state, on
 * this instance and after a write from another one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, silentLogger, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { createService, type Service } from "../../src/service.js";
import { listEntries, updateEntry } from "../../src/services/entries.js";
import { getCollection } from "../../src/services/collections.js";
import { fieldsFingerprint } from "../../src/storage/entry-deliveries.js";

type Item = Record<string, unknown>;

describe.each(drivers)("stored delivery JSON on %s", (driver) => {
  let t: TestServer;
  let other: Service;
  let owner: string;
  let wsId: string;
  let spelled = 0;

  /** The list read with `query`, its parameter names spelled anew each time so the response cache never answers. */
  const read = async (query = "") => {
    const n = ++spelled;
    const spell = (key: string) => [...key].map((c, i) => ((n >> i % 12) & 1 ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
    const q = (query || "limit=20").split("&").map((part) => spell(part.slice(0, part.indexOf("="))) + part.slice(part.indexOf("="))).join("&");
    const res = await t.request(`/api/v1/posts?${q}`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const items = async (query = "") => JSON.parse(await read(query)).data as Item[];
  /** What the general path (services/entries.ts) serializes for the same query. */
  const general = async (query: string) => {
    const posts = await getCollection(t.svc.context, wsId, "posts");
    return JSON.stringify(await listEntries(t.svc.context, posts, new URLSearchParams(query), { publishedOnly: true }));
  };
  const stored = async () => Number((await t.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM entry_deliveries"))?.n);
  const published = async () => Number((await t.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM entries WHERE status = 'published'"))?.n);
  const body = async (id: string) => (await t.svc.context.sql.get<{ body: string; shape: string }>("SELECT body, shape FROM entry_deliveries WHERE entry_id = ?", [id]));
  const create = async (json: Item) => (await (await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json })).json()).id as string;
  const patchEntry = (id: string, json: Item) => t.request(`/api/dashboard/collections/posts/entries/${id}`, { method: "PATCH", token: owner, json });
  const patchCollection = async (json: unknown, query = "") => {
    const res = await t.request(`/api/dashboard/collections/posts${query}`, { method: "PATCH", token: owner, json });
    expect(res.status).toBe(200);
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
      { name: "featured", type: "boolean" },
      { name: "meta", type: "json" },
    ];
    await t.request("/api/dashboard/collections", { method: "POST", token: owner, json: { name: "posts", access: "public", fields } });
    await create({ title: "a", views: 3, featured: true, meta: { tags: ["x", "ü"], n: 1.5 }, _status: "published" });
    await create({ title: 'b "quoted" \u2028', views: 1, _status: "published" });
    await create({ title: "c", views: 2, featured: false, _status: "published" });
    await create({ title: "draft", views: 9 });
    other = await createService({ dataDir: t.db.dataDir, database: t.db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it("answers byte for byte what the general path serializes, stored or rendered, sorted, filtered and paged", async () => {
    const queries = ["", "sort=views&limit=2", "sort=-title,views&limit=1&offset=1", "filter[views][gte]=2", "limit=0", "sort=views&limit=1"];
    // Each published entry's body was stored by the write that created it.
    expect(await stored()).toBe(3);
    for (const q of queries) expect(await read(q)).toBe(await general(q));
    // An entry without a stored body (as after an upgrade) is rendered by the read, and not stored
    // by it: the read signals the background filler, which stores them apart from any request.
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    for (const q of queries) expect(await read(q)).toBe(await general(q));
    await t.svc.context.deliveryBackfill.idle();
    expect(await stored()).toBe(3);
    // Signalled again within the filler's retry delay, so from here on only writes store bodies.
    await t.svc.context.sql.run("DELETE FROM entry_deliveries");
    for (const q of queries) expect(await read(q)).toBe(await general(q));
    await t.svc.context.deliveryBackfill.idle();
    expect(await stored()).toBe(0);
    const posts = await getCollection(t.svc.context, wsId, "posts");
    for (const e of await items()) await updateEntry(t.svc.context, wsId, "posts", e.id as string, {});
    expect(await stored()).toBe(3);
    for (const e of await items()) expect(await body(e.id as string)).toEqual({ body: JSON.stringify(e), shape: fieldsFingerprint(posts) });
    // The cursor of a page read from stored bodies leads to the same next page.
    const first = JSON.parse(await read("sort=views&limit=2"));
    const after = `sort=views&limit=2&after=${first.meta.next}`;
    expect(await read(after)).toBe(await general(after));
    expect((JSON.parse(await read(after)).data as Item[]).map((e) => e.title)).toEqual(["a"]);
  });

  it("shows an entry update, a publish, an unpublish and a delete on the very next read", async () => {
    await read();
    expect(await stored()).toBe(3);
    const [a] = (await items()).filter((e) => e.title === "a");
    expect((await patchEntry(a!.id as string, { title: "a2", views: 30 })).status).toBe(200);
    expect((await items()).find((e) => e.id === a!.id)).toMatchObject({ title: "a2", views: 30, featured: true });

    const draftId = (await t.svc.context.sql.get<{ id: string }>("SELECT id FROM entries WHERE status = 'draft'"))!.id;
    await patchEntry(draftId, { _status: "published" });
    expect((await items()).map((e) => e.title)).toContain("draft");
    expect(await body(draftId)).toBeDefined();
    await patchEntry(draftId, { _status: "draft" });
    expect((await items()).map((e) => e.title)).not.toContain("draft");
    expect(await body(draftId)).toBeUndefined();

    const gone = await create({ title: "short-lived", _status: "published" });
    expect((await items()).map((e) => e.title)).toContain("short-lived");
    expect((await t.request(`/api/dashboard/collections/posts/entries/${gone}`, { method: "DELETE", token: owner })).status).toBe(200);
    expect((await items()).map((e) => e.title)).not.toContain("short-lived");
    expect(await read()).toBe(await general(""));
  });

  it("shows a write from another instance on the very next read", async () => {
    await read();
    const c = (await items()).find((e) => e.title === "c")!;
    await updateEntry(other.context, wsId, "posts", c.id as string, { title: "c from elsewhere" });
    expect((await items()).find((e) => e.id === c.id)!.title).toBe("c from elsewhere");
  });

  it("follows a field renamed, added or removed on the very next read, the bodies rendered again by the filler", async () => {
    await read();
    const current = async () => fieldsFingerprint(await getCollection(t.svc.context, wsId, "posts"));
    const underCurrent = async () => Number((await t.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM entry_deliveries WHERE shape = ?", [await current()]))?.n);
    await patchCollection({ rename: { from: "views", to: "reads" } });
    let list = await items();
    expect(list.every((e) => "reads" in e && !("views" in e))).toBe(true);
    await t.svc.context.deliveryBackfill.idle();
    expect(await underCurrent()).toBe(await published());
    list = await items();
    expect(list.every((e) => "reads" in e && !("views" in e))).toBe(true);
    expect(await read()).toBe(await general(""));

    await patchCollection({ add: { name: "summary", type: "text" } });
    list = await items();
    expect(list.every((e) => e.summary === null)).toBe(true);
    expect(Object.keys(list[0]!).slice(0, 6)).toEqual(["id", "title", "reads", "featured", "meta", "summary"]);

    await patchCollection({ remove: "featured" }, "?confirm=drop");
    list = await items();
    expect(list.every((e) => !("featured" in e))).toBe(true);
    expect(await read()).toBe(await general(""));
    await t.svc.context.deliveryBackfill.idle();
    expect(await underCurrent()).toBe(await published());
    expect(await read()).toBe(await general(""));
  });

  it("serves entries of several kilobytes byte for byte, stored and rendered", async () => {
    const long = await create({ title: "long ".repeat(1200), meta: { text: "é€😀 ".repeat(400) }, _status: "published" });
    expect(await read()).toBe(await general(""));
    await t.svc.context.sql.run("DELETE FROM entry_deliveries WHERE entry_id = ?", [long]);
    expect(await read()).toBe(await general(""));
    expect((await items()).find((e) => e.id === long)!.title).toBe("long ".repeat(1200));
    expect((await t.request(`/api/dashboard/collections/posts/entries/${long}`, { method: "DELETE", token: owner })).status).toBe(200);
  });

  it.runIf(driver === "sqlite")("never joins a body stored under a rowid that now belongs to another entry", async () => {
    await read();
    const list = await items();
    expect(await stored()).toBe(list.length);
    const [a, b] = list.map((e) => e.id as string);
    const rowid = async (id: string) => (await t.svc.context.sql.get<{ r: number }>("SELECT rowid AS r FROM entries WHERE id = ?", [id]))!.r;
    // What a VACUUM renumbering rowids could leave: a's body under the rowid b has now.
    await t.svc.context.sql.run("DELETE FROM entry_deliveries WHERE entry_id = ?", [b]);
    await t.svc.context.sql.run("UPDATE entry_deliveries SET entry_rowid = ? WHERE entry_id = ?", [await rowid(b!), a]);
    expect(await read()).toBe(await general(""));
    // The next write of each stores it again, under its entry's own rowid.
    for (const id of [a!, b!]) await updateEntry(t.svc.context, wsId, "posts", id, {});
    expect(await stored()).toBe(list.length);
    const rows = await t.svc.context.sql.all<{ entry_rowid: number; entry_id: string }>("SELECT entry_rowid, entry_id FROM entry_deliveries");
    for (const row of rows) expect(row.entry_rowid).toBe(await rowid(row.entry_id));
    expect(await read()).toBe(await general(""));
  });

  it("stores the body in the writing transaction: a write that fails stores none", async () => {
    const id = (await items())[0]!.id as string;
    const before = await body(id);
    // A patch refused by validation rolls back: the stored body stays the entry's current JSON.
    expect((await patchEntry(id, { reads: "not a number" })).status).toBe(400);
    expect(await body(id)).toEqual(before);
    await updateEntry(t.svc.context, wsId, "posts", id, { title: "changed" });
    expect(JSON.parse((await body(id))!.body)).toMatchObject({ id, title: "changed" });
    expect((await items()).find((e) => e.id === id)!.title).toBe("changed");
  });
});
