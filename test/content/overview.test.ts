/**
 * GET /api/dashboard/overview: every collection with its published and draft counts (kept right
 * through publish, unpublish and delete), the entries updated last across collections with their
 * labels, and who may read it: entries:read (which covers every collection), from an owner, a
 * member or a key; a member holding only other grants is refused naming the grant. Both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { LABEL_LENGTH, RECENT_CHANGES } from "../../src/services/overview.js";

type Json = any;

describe.each(drivers)("dashboard overview on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  let wsId: string;
  const ids: Record<string, string[]> = { posts: [], pages: [] };

  const post = async (path: string, json: unknown) => (await s.as(owner).post(path, json)).expectStatus(201).body as Json;
  const overview = async (token = owner) => (await s.as(token).get("/api/dashboard/overview")).expectStatus(200).body as Json;

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    wsId = ws.id;
    owner = await dashboardToken(s.svc.context, ws.id, "owner");
    await post("/api/dashboard/collections", { name: "posts", fields: [{ name: "views", type: "number" }, { name: "title", type: "string" }] });
    await post("/api/dashboard/collections", { name: "pages", fields: [{ name: "body", type: "text" }] });
    await post("/api/dashboard/collections", { name: "empty", fields: [{ name: "title", type: "string" }] });
    for (let i = 0; i < 7; i++) ids.posts!.push((await post("/api/dashboard/collections/posts/entries", { title: `Post ${i}`, views: i, _status: i < 3 ? "published" : "draft" })).id);
    for (let i = 0; i < 8; i++) ids.pages!.push((await post("/api/dashboard/collections/pages/entries", { body: `Page ${i}` })).id);
  });
  afterAll(() => s?.close());

  it("counts each collection's published and drafts, every collection listed by name", async () => {
    const body = await overview();
    expect(body.collections).toEqual([
      { name: "empty", published: 0, draft: 0 },
      { name: "pages", published: 0, draft: 8 },
      { name: "posts", published: 3, draft: 4 },
    ]);
  });

  it("keeps the counts right through publish, unpublish and delete", async () => {
    const owned = s.as(owner);
    (await owned.patch(`/api/dashboard/collections/pages/entries/${ids.pages![0]}`, { _status: "published" })).expectStatus(200);
    (await owned.patch(`/api/dashboard/collections/posts/entries/${ids.posts![0]}`, { _status: "draft" })).expectStatus(200);
    (await owned.delete(`/api/dashboard/collections/posts/entries/${ids.posts![6]}`)).expectStatus(200);
    const body = await overview();
    expect(body.collections).toContainEqual({ name: "pages", published: 1, draft: 7 });
    expect(body.collections).toContainEqual({ name: "posts", published: 2, draft: 4 });
  });

  it(`lists the ${RECENT_CHANGES} entries updated last across collections, newest first, with labels`, async () => {
    // A known order, whatever the clock's resolution: touch entries one after another.
    const order = [ids.posts![1]!, ids.pages![3]!, ids.posts![2]!];
    for (const id of order) {
      const collection = ids.posts!.includes(id) ? "posts" : "pages";
      await new Promise((r) => setTimeout(r, 5));
      (await s.as(owner).patch(`/api/dashboard/collections/${collection}/entries/${id}`, {})).expectStatus(200);
    }
    const { recent } = await overview();
    expect(recent).toHaveLength(RECENT_CHANGES);
    expect(recent.slice(0, 3).map((r: Json) => r.id)).toEqual([...order].reverse());
    expect(recent[0]).toEqual({ collection: "posts", id: ids.posts![2], label: "Post 2", _status: "published", _updated_at: expect.any(String) });
    // pages has no string field: no label rather than its text body.
    expect(recent[1]).toMatchObject({ collection: "pages", id: ids.pages![3], label: null, _status: "draft" });
    const times = recent.map((r: Json) => r._updated_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(recent.map((r: Json) => r.id)).not.toContain(ids.posts![6]);
  });

  it(`shortens a long label to ${LABEL_LENGTH} characters`, async () => {
    const long = "é".repeat(LABEL_LENGTH + 50);
    const entry = await post("/api/dashboard/collections/empty/entries", { title: long });
    const { recent, collections } = await overview();
    expect(recent[0]).toMatchObject({ collection: "empty", id: entry.id, label: `${"é".repeat(LABEL_LENGTH)}…` });
    expect(collections).toContainEqual({ name: "empty", published: 0, draft: 1 });
  });

  it("answers entries:read from a member or a key; refuses other grants naming entries:read", async () => {
    const reader = await dashboardToken(s.svc.context, wsId, "member", ["entries:read"]);
    const writer = await apiKey(s.svc.context, wsId, ["entries:write"]);
    const full = await overview();
    expect(await overview(reader)).toEqual(full);
    expect(await overview(writer)).toEqual(full);
    for (const grants of [["collections:read", "forms:read"], ["collections:write", "media:write"], []]) {
      const member = await dashboardToken(s.svc.context, wsId, "member", grants);
      (await s.as(member).get("/api/dashboard/overview")).expectStatus(403).expectBody({ error: "Missing grant: entries:read", grant: "entries:read" });
    }
    (await s.get("/api/dashboard/overview")).expectStatus(401);
  });

  it("shows a narrowed key only its collections, and no draft to a key limited to published entries", async () => {
    const key = async (body: object) => (await s.as(owner).post("/api/dashboard/keys", { name: "site", grants: ["entries:read"], ...body })).expectStatus(201).body.value as string;
    const full = await overview();
    const postsOnly = await overview(await key({ collections: ["posts"] }));
    expect(postsOnly.collections).toEqual(full.collections.filter((c: Json) => c.name === "posts"));
    expect(postsOnly.recent.length).toBeGreaterThan(0);
    expect(postsOnly.recent.every((r: Json) => r.collection === "posts")).toBe(true);

    const published = await overview(await key({ published_only: true }));
    expect(published.collections).toEqual(full.collections.map((c: Json) => ({ ...c, draft: 0 })));
    expect(published.recent.length).toBeGreaterThan(0);
    expect(published.recent.every((r: Json) => r._status === "published")).toBe(true);
  });

  it("shows one workspace's collections only", async () => {
    const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    const otherOwner = await dashboardToken(s.svc.context, other.id, "owner");
    (await s.as(otherOwner, { host: "other.localhost" }).post("/api/dashboard/collections", { name: "posts", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    const body = (await s.as(otherOwner, { host: "other.localhost" }).get("/api/dashboard/overview")).expectStatus(200).body;
    expect(body).toEqual({ collections: [{ name: "posts", published: 0, draft: 0 }], recent: [] });
  });
});
