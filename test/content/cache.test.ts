/**
 * The delivery cache never serves a stale read after a committed write: on the same instance,
 * or after a change of the collection's access; from another instance on the same database, on
 * the very next read on SQLite and once the change is pushed on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { silentLogger } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { createService, type Service } from "../../src/service.js";
import { createEntry } from "../../src/services/entries.js";

describe.each(drivers)("delivery cache on %s", (driver) => {
  let s: ServerScenario;
  let other: Service;
  let owner: Caller;
  let wsId: string;
  const titles = async (path = "/api/v1/posts") => ((await s.get(path)).expectStatus(200).body.data as { title: string }[]).map((e) => e.title).sort();
  const publish = async (title: string) => (await owner.post("/api/dashboard/collections/posts/entries", { title, _status: "published" })).expectStatus(201).body as { id: string };

  beforeAll(async () => {
    s = await scenario(driver);
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    await publish("a");
    // A second instance on the same database, as another server process or the CLI would be.
    other = await createService({ dataDir: s.t.db.dataDir, database: s.t.db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
  });
  afterAll(async () => {
    await other?.close();
    await s?.close();
  });

  it("serves repeated reads from the cache and a write on this instance at once", async () => {
    expect(await titles()).toEqual(["a"]);
    expect(await titles()).toEqual(["a"]);
    expect(s.svc.context.caches.delivery.size).toBeGreaterThan(0);
    await publish("b");
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
    const { id } = await publish("d");
    (await s.get(`/api/v1/posts/${id}`)).expectStatus(200);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${id}`, { _status: "draft" })).expectStatus(200);
    (await s.get(`/api/v1/posts/${id}`)).expectStatus(404);
    expect(await titles()).toEqual(["a", "b", "c"]);
  });

  // A total is counted once per content version and reused by every page and spelling of the
  // same filters; a page the response cache has never seen must still carry the new total.
  it("reuses a list total only while nothing changed, whichever instance wrote", async () => {
    const meta = async (path: string) => (await s.get(path)).expectStatus(200).body.meta as { total: number; offset: number };
    const start = (await meta("/api/v1/posts?limit=1")).total;
    expect(await meta("/api/v1/posts?limit=1&offset=1")).toMatchObject({ total: start, offset: 1 });
    await publish("t1");
    expect((await meta("/api/v1/posts?limit=1&offset=2")).total).toBe(start + 1);
    await createEntry(other.context, wsId, "posts", { title: "t2", _status: "published" }, wsId);
    const seen = async () => (await meta(`/api/v1/posts?limit=1&offset=${3 + Math.floor(Math.random() * 1000)}`)).total;
    if (driver === "postgresql") for (const end = Date.now() + 2000; Date.now() < end && (await seen()) !== start + 2; ) await new Promise((r) => setTimeout(r, 5));
    expect(await seen()).toBe(start + 2);
    // Filtered totals too, spelled another way (%5B…%5D) so the response cache misses.
    const filtered = (await meta("/api/v1/posts?filter[title]=t1")).total;
    expect(filtered).toBe(1);
    await publish("t1");
    expect((await meta("/api/v1/posts?filter%5Btitle%5D=t1")).total).toBe(2);
    await createEntry(other.context, wsId, "posts", { title: "t1", _status: "draft" }, wsId);
    expect((await meta("/api/v1/posts?filter%5Btitle%5D=t1&limit=5")).total).toBe(2);
  });

  it("applies a change of access at once: public → private refuses the next anonymous read", async () => {
    (await s.get("/api/v1/posts")).expectStatus(200);
    (await owner.put("/api/dashboard/collections/posts", { name: "posts", access: "private", fields: [{ name: "title", type: "string" }] })).expectStatus(200);
    expect(await s.get("/api/v1/posts")).toEqual({ status: 401, body: { error: "Unauthorized" } });
  });
});

describe.each(drivers)("entry totals on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  beforeAll(async () => {
    s = await scenario(driver);
    const wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "n", type: "number" }] })).expectStatus(201);
  });
  afterAll(() => s?.close());

  it("keeps meta.total exact through creates, status changes and deletes, filtered or not", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await owner.post("/api/dashboard/collections/posts/entries", { n: i % 2, _status: i < 4 ? "published" : "draft" })).expectStatus(201).body.id);
    }
    const total = async (path: string, caller: Caller = s) => (await caller.get(path)).expectStatus(200).body.meta.total;
    expect(await total("/api/v1/posts")).toBe(4);
    expect(await total("/api/dashboard/collections/posts/entries", owner)).toBe(6);
    expect(await total("/api/dashboard/collections/posts/entries?status=draft", owner)).toBe(2);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${ids[0]}`, { _status: "draft" })).expectStatus(200);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${ids[4]}`, { _status: "published" })).expectStatus(200);
    (await owner.delete(`/api/dashboard/collections/posts/entries/${ids[1]}`)).expectStatus(200);
    expect(await total("/api/v1/posts")).toBe(3);
    expect(await total("/api/v1/posts?filter[n]=0")).toBe(2);
    expect(await total("/api/dashboard/collections/posts/entries", owner)).toBe(5);
    expect(await total("/api/dashboard/collections/posts/entries?status=draft", owner)).toBe(2);
  });
});
