/**
 * Writes through HTTP and the events they fire on ctx.bus (spec 3, 6.2): the full lifecycle
 * table, payload shape (spec 2.5: many-to-many absent, one-to-many present, system fields and
 * their formats), validation errors naming the field. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EventName } from "../../src/core/events.js";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(drivers)("entry writes and events on %s", (driver) => {
  let s: Scenario;
  let owner: { userId: string; token: string };
  let writer: { id: string; token: string };
  let workspaceId: string;
  let authorId: string;
  let tagIds: string[];

  const create = async (json: unknown) => {
    const r = await s.as(writer.token).post("/api/dashboard/collections/posts/entries", json);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    workspaceId = ws.id;
    owner = await createTestSession(s.svc.context, ws.id);
    writer = await createTestKey(s.svc.context, ws.id, ["entries:write"]);
    const col = (json: unknown) => s.as(owner.token).post("/api/dashboard/collections", json);
    await col({ name: "authors", fields: [{ name: "name", type: "string" }] });
    await col({ name: "tags", fields: [{ name: "label", type: "string" }] });
    expect(
      (
        await col({
          name: "posts",
          access: "public",
          fields: [
            { name: "title", type: "string", required: true },
            { name: "body", type: "text" },
            { name: "views", type: "number" },
            { name: "featured", type: "boolean" },
            { name: "when", type: "datetime" },
            { name: "meta", type: "json" },
            { name: "cover", type: "media" },
            { name: "author", type: "relation", collection: "authors" },
            { name: "tags", type: "relations", collection: "tags" },
          ],
        })
      ).status,
    ).toBe(201);
    authorId = (await s.as(writer.token).post("/api/dashboard/collections/authors/entries", { name: "Ada" })).body.id;
    tagIds = [];
    for (const label of ["x", "y"]) tagIds.push((await s.as(writer.token).post("/api/dashboard/collections/tags/entries", { label })).body.id);
  });
  beforeEach(() => s.clearEvents());
  afterAll(() => s?.close());

  // spec section 3, every row: [transition, setup status (null: none), request, expected events]
  const table: [string, "draft" | "published" | null, (id?: string) => [string, string, unknown], EventName[]][] = [
    ["created as draft", null, () => ["POST", "", { title: "a" }], ["content.created"]],
    ["created with explicit draft", null, () => ["POST", "", { title: "a", _status: "draft" }], ["content.created"]],
    ["created as published", null, () => ["POST", "", { title: "a", _status: "published" }], ["content.created", "content.published"]],
    ["draft → published", "draft", () => ["PATCH", "", { _status: "published" }], ["content.published"]],
    ["published → draft", "published", () => ["PATCH", "", { _status: "draft" }], ["content.unpublished"]],
    ["draft saved, status unchanged", "draft", () => ["PATCH", "", { title: "b" }], ["content.updated"]],
    ["published saved, status unchanged", "published", () => ["PATCH", "", { title: "b" }], ["content.updated"]],
    ["published saved with the same _status", "published", () => ["PATCH", "", { _status: "published", views: 3 }], ["content.updated"]],
    ["draft saved with an empty patch", "draft", () => ["PATCH", "", {}], ["content.updated"]],
    ["draft → published with field changes", "draft", () => ["PATCH", "", { title: "c", _status: "published" }], ["content.published"]],
    ["draft deleted", "draft", () => ["DELETE", "", undefined], ["content.deleted"]],
    ["published deleted", "published", () => ["DELETE", "", undefined], ["content.deleted"]],
  ];

  it.each(table)("%s", async (_label, setup, req, expected) => {
    const id = setup ? (await create({ title: "setup", _status: setup })).id : undefined;
    s.clearEvents();
    const [method, , json] = req(id);
    const path = `/api/dashboard/collections/posts/entries${id ? `/${id}` : ""}`;
    const r = await s.as(writer.token).send(method, path, json);
    expect(r.status, JSON.stringify(r.body)).toBe(method === "POST" ? 201 : 200);
    for (const e of s.expectEvents(expected)) {
      expect(e.workspaceId).toBe(workspaceId);
      expect(e.data).toEqual({ collection: "posts", entry: expect.objectContaining({ id: r.body.id }) });
      if (e.event !== "form.submitted") {
        const { tags: _tags, ...withoutTags } = r.body;
        expect(e.data.entry).toEqual(withoutTags);
      }
    }
  });

  it("content.deleted carries the full entry as it was, and it is gone afterwards", async () => {
    const entry = await create({ title: "doomed", views: 9, author: authorId, tags: tagIds, _status: "published" });
    s.clearEvents();
    const del = await s.as(writer.token).delete(`/api/dashboard/collections/posts/entries/${entry.id}`);
    expect(del.body).toEqual(entry);
    const [deleted] = s.expectEvents(["content.deleted"]);
    const { tags: _t, ...asWas } = entry;
    expect(deleted!.data).toEqual({ collection: "posts", entry: asWas });
    expect((await s.as(writer.token).get(`/api/dashboard/collections/posts/entries/${entry.id}`)).status).toBe(404);
    expect((await s.as(writer.token).delete(`/api/dashboard/collections/posts/entries/${entry.id}`)).status).toBe(404);
    s.expectEvents([]);
  });

  it("many-to-many is returned by reads but absent from event payloads; one-to-many is present", async () => {
    const entry = await create({ title: "rel", author: authorId, tags: [tagIds[1], tagIds[0]], _status: "published" });
    expect(entry.tags).toEqual([tagIds[1], tagIds[0]]);
    expect(entry.author).toBe(authorId);
    for (const path of [`/api/dashboard/collections/posts/entries/${entry.id}`, `/api/v1/posts/${entry.id}`]) {
      const r = await s.as(writer.token).get(path);
      const e = r.body.data ?? r.body;
      expect(e.tags).toEqual([tagIds[1], tagIds[0]]);
    }
    const listed = (await s.as(writer.token).get("/api/dashboard/collections/posts/entries?filter[title]=rel")).body.data[0];
    expect(listed.tags).toEqual([tagIds[1], tagIds[0]]);
    for (const e of s.expectEvents(["content.created", "content.published"])) {
      const payload = e.data as { entry: Record<string, unknown> };
      expect(Object.hasOwn(payload.entry, "tags")).toBe(false);
      expect(payload.entry.author).toBe(authorId);
      expect(JSON.parse(JSON.stringify(payload))).not.toHaveProperty("entry.tags");
    }
    s.clearEvents();
    const cleared = await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${entry.id}`, { tags: [] });
    expect(cleared.body.tags).toEqual([]);
    expect(Object.hasOwn((s.events[0]!.data as { entry: object }).entry, "tags")).toBe(false);
  });

  it("writes system fields in the spec 2.5 formats", async () => {
    const before = Date.now();
    const draft = await create({ title: "fmt" });
    expect(draft.id).toMatch(UUID);
    expect(draft._status).toBe("draft");
    expect(draft._published_at).toBeNull();
    expect(draft._created_by).toBe(writer.id);
    expect(draft._created_by).toMatch(UUID);
    expect(draft._created_at).toMatch(ISO_MS);
    expect(draft._updated_at).toBe(draft._created_at);
    expect(Date.parse(draft._created_at)).toBeGreaterThanOrEqual(before - 5);
    const pub = (await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${draft.id}`, { _status: "published" })).body;
    expect(pub._published_at).toMatch(ISO_MS);
    expect(pub._created_at).toBe(draft._created_at);
    expect(pub._created_by).toBe(writer.id);
    // _published_at is kept on unpublish and on publishing again (docs/content.md)
    const unpub = (await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${draft.id}`, { _status: "draft" })).body;
    expect(unpub._published_at).toBe(pub._published_at);
    const again = (await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${draft.id}`, { _status: "published" })).body;
    expect(again._published_at).toBe(pub._published_at);
    const byOwner = (await s.as(owner.token).post("/api/dashboard/collections/posts/entries", { title: "o" })).body;
    expect(byOwner._created_by).toBe(owner.userId);
    // optional fields read as null when unset; keys in a stable order
    expect(Object.keys(draft)).toEqual(["id", "title", "body", "views", "featured", "when", "meta", "cover", "author", "tags", "_status", "_published_at", "_created_by", "_created_at", "_updated_at"]);
    expect(draft.views).toBeNull();
  });

  it("normalizes datetime values to ISO 8601 UTC with milliseconds", async () => {
    const e = await create({ title: "dt", when: "2024-05-01T14:00:00+02:00" });
    expect(e.when).toBe("2024-05-01T12:00:00.000Z");
  });

  it.each([
    [{}, /^title: is required$/, "title"],
    [{ title: 5 }, /^title: must be a string$/, "title"],
    [{ title: "x", views: "many" }, /^views: must be a finite number$/, "views"],
    [{ title: "x", featured: "yes" }, /^featured: must be true or false$/, "featured"],
    [{ title: "x", when: "yesterday" }, /^when: must be an ISO 8601 date-time/, "when"],
    [{ title: "x", author: "not-a-uuid" }, /^author: must be an entry id \(UUID\) of authors$/, "author"],
    [{ title: "x", author: "00000000-0000-4000-8000-000000000000" }, /^author: no entry 00000000-0000-4000-8000-000000000000 in collection authors$/, "author"],
    [{ title: "x", tags: "abc" }, /^tags: must be an array of entry ids of tags$/, "tags"],
    [{ title: "x", tags: ["00000000-0000-4000-8000-000000000000"] }, /^tags: no entry .* in collection tags$/, "tags"],
    [{ title: "x", nope: 1 }, /^nope: unknown field of collection posts \(fields: title, body/, "nope"],
    [{ title: "x", _status: "live" }, /^_status: must be "draft" or "published"$/, "_status"],
    [{ title: "x", _created_at: "2020-01-01T00:00:00.000Z" }, /^_created_at: is a read-only system field$/, "_created_at"],
    [{ title: "x", id: "00000000-0000-4000-8000-000000000000" }, /^id: is a read-only system field$/, "id"],
    [{ title: null }, /^title: /, "title"],
  ])("refuses %j with 400 naming the field", async (json, message, field) => {
    const r = await s.as(writer.token).post("/api/dashboard/collections/posts/entries", json);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect(r.body.field).toBe(field);
    s.expectEvents([]);
  });

  it("refuses a patch that nulls a required field, and fires nothing", async () => {
    const e = await create({ title: "keep" });
    s.clearEvents();
    const r = await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${e.id}`, { title: null });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^title: /);
    s.expectEvents([]);
    const cleared = await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${e.id}`, { views: 1 });
    expect(cleared.body.views).toBe(1);
    expect((await s.as(writer.token).patch(`/api/dashboard/collections/posts/entries/${e.id}`, { views: null })).body.views).toBeNull();
  });

  it("needs entries:write to write and entries:read to read in the dashboard", async () => {
    const reader = await createTestKey(s.svc.context, workspaceId, ["entries:read"]);
    const r = await s.as(reader.token).post("/api/dashboard/collections/posts/entries", { title: "x" });
    expect(r).toEqual({ status: 403, body: { error: "Missing grant: entries:write", grant: "entries:write" } });
    const none = await createTestKey(s.svc.context, workspaceId, ["collections:write"]);
    expect((await s.as(none.token).get("/api/dashboard/collections/posts/entries")).body).toEqual({
      error: "Missing grant: entries:read",
      grant: "entries:read",
    });
    s.expectEvents([]);
  });

  it("answers 404 for an unknown collection or entry", async () => {
    expect((await s.as(writer.token).post("/api/dashboard/collections/nope/entries", { title: "x" })).body).toEqual({ error: "Unknown collection: nope" });
    expect((await s.as(writer.token).patch("/api/dashboard/collections/posts/entries/nope", { title: "x" })).status).toBe(404);
    s.expectEvents([]);
  });
});
