/**
 * The delivery cache never serves a stale read after a committed write: on the same instance,
 * or after a change of the collection's access; from another instance on the same database, on
 * the very next read on SQLite and once the change is pushed on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, silentLogger, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { createService, type Service } from "../../src/service.js";
import { createEntry } from "../../src/services/entries.js";

describe.each(drivers)("delivery cache on %s", (driver) => {
  let t: TestServer;
  let other: Service;
  let owner: string;
  let wsId: string;
  const titles = async (path = "/api/v1/posts") => ((await (await t.request(path)).json()).data as { title: string }[]).map((e) => e.title).sort();

  beforeAll(async () => {
    t = await startTestServer(driver);
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    await t.request("/api/dashboard/collections", { method: "POST", token: owner, json: { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] } });
    await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { title: "a", _status: "published" } });
    // A second instance on the same database, as another server process or the CLI would be.
    other = await createService({ dataDir: t.db.dataDir, database: t.db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it("serves repeated reads from the cache and a write on this instance at once", async () => {
    expect(await titles()).toEqual(["a"]);
    expect(await titles()).toEqual(["a"]);
    expect(t.svc.context.caches.delivery.size).toBeGreaterThan(0);
    await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { title: "b", _status: "published" } });
    expect(await titles()).toEqual(["a", "b"]);
  });

  // SQLite reads the content version with the tenant on every request. PostgreSQL pushes it
  // (storage/version-push.ts): another instance's write shows once its notification arrived,
  // within milliseconds (the bound is measured in test/scale/version-push.test.ts).
  it(driver === "sqlite" ? "sees a write committed by another instance on the very next read" : "sees a write committed by another instance once pushed", async () => {
    expect(await titles()).toEqual(["a", "b"]);
    await createEntry(other.context, wsId, "posts", { title: "c", _status: "published" }, wsId);
    if (driver === "postgresql") for (const end = Date.now() + 2000; Date.now() < end && (await titles()).length < 3; ) await new Promise((r) => setTimeout(r, 5));
    expect(await titles()).toEqual(["a", "b", "c"]);
  });

  it("never serves an unpublished entry from the cache", async () => {
    const res = await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { title: "d", _status: "published" } });
    const { id } = await res.json();
    expect((await t.request(`/api/v1/posts/${id}`)).status).toBe(200);
    await t.request(`/api/dashboard/collections/posts/entries/${id}`, { method: "PATCH", token: owner, json: { _status: "draft" } });
    expect((await t.request(`/api/v1/posts/${id}`)).status).toBe(404);
    expect(await titles()).toEqual(["a", "b", "c"]);
  });

  // A total is counted once per content version and reused by every page and spelling of the
  // same filters; a page the response cache has never seen must still carry the new total.
  it("reuses a list total only while nothing changed, whichever instance wrote", async () => {
    const meta = async (path: string) => (await (await t.request(path)).json()).meta as { total: number; offset: number };
    const start = (await meta("/api/v1/posts?limit=1")).total;
    expect(await meta("/api/v1/posts?limit=1&offset=1")).toMatchObject({ total: start, offset: 1 });
    await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { title: "t1", _status: "published" } });
    expect((await meta("/api/v1/posts?limit=1&offset=2")).total).toBe(start + 1);
    await createEntry(other.context, wsId, "posts", { title: "t2", _status: "published" }, wsId);
    const seen = async () => (await meta(`/api/v1/posts?limit=1&offset=${3 + Math.floor(Math.random() * 1000)}`)).total;
    if (driver === "postgresql") for (const end = Date.now() + 2000; Date.now() < end && (await seen()) !== start + 2; ) await new Promise((r) => setTimeout(r, 5));
    expect(await seen()).toBe(start + 2);
    // Filtered totals too, spelled another way (%5B…%5D) so the response cache misses.
    const filtered = (await meta("/api/v1/posts?filter[title]=t1")).total;
    expect(filtered).toBe(1);
    await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { title: "t1", _status: "published" } });
    expect((await meta("/api/v1/posts?filter%5Btitle%5D=t1")).total).toBe(2);
    await createEntry(other.context, wsId, "posts", { title: "t1", _status: "draft" }, wsId);
    expect((await meta("/api/v1/posts?filter%5Btitle%5D=t1&limit=5")).total).toBe(2);
  });

  it("applies a change of access at once: public → private refuses the next anonymous read", async () => {
    expect((await t.request("/api/v1/posts")).status).toBe(200);
    const put = await t.request("/api/dashboard/collections/posts", { method: "PUT", token: owner, json: { name: "posts", access: "private", fields: [{ name: "title", type: "string" }] } });
    expect(put.status).toBe(200);
    const res = await t.request("/api/v1/posts");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
  });
});

describe.each(drivers)("entry totals on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    const wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    await t.request("/api/dashboard/collections", { method: "POST", token: owner, json: { name: "posts", access: "public", fields: [{ name: "n", type: "number" }] } });
  });
  afterAll(() => t?.close());

  it("keeps meta.total exact through creates, status changes and deletes, filtered or not", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.request("/api/dashboard/collections/posts/entries", { method: "POST", token: owner, json: { n: i % 2, _status: i < 4 ? "published" : "draft" } });
      ids.push((await res.json()).id);
    }
    const total = async (path: string, token?: string) => (await (await t.request(path, { token })).json()).meta.total;
    expect(await total("/api/v1/posts")).toBe(4);
    expect(await total("/api/dashboard/collections/posts/entries", owner)).toBe(6);
    expect(await total("/api/dashboard/collections/posts/entries?status=draft", owner)).toBe(2);
    await t.request(`/api/dashboard/collections/posts/entries/${ids[0]}`, { method: "PATCH", token: owner, json: { _status: "draft" } });
    await t.request(`/api/dashboard/collections/posts/entries/${ids[4]}`, { method: "PATCH", token: owner, json: { _status: "published" } });
    await t.request(`/api/dashboard/collections/posts/entries/${ids[1]}`, { method: "DELETE", token: owner });
    expect(await total("/api/v1/posts")).toBe(3);
    expect(await total("/api/v1/posts?filter[n]=0")).toBe(2);
    expect(await total("/api/dashboard/collections/posts/entries", owner)).toBe(5);
    expect(await total("/api/dashboard/collections/posts/entries?status=draft", owner)).toBe(2);
  });
});
