/**
 * PATCH /api/dashboard/collections/{name}: one field added, renamed or removed. A rename moves
 * the stored values of drafts and published entries (plain values, one-to-many and many-to-many)
 * and the delivery API shows the new name at once; a removal of a field holding values needs
 * ?confirm=drop and otherwise answers 409 with the count. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";

describe.each(drivers)("PATCH collections on %s", (driver) => {
  let s: Scenario;
  let owner: string;
  let workspaceId: string;
  const patch = (json: unknown, query = "", token = owner) => s.as(token).patch(`/api/dashboard/collections/posts${query}`, json);
  const entry = async (json: unknown) => {
    const r = await s.as(owner).post("/api/dashboard/collections/posts/entries", json);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; _updated_at: string };
  };
  const fieldNames = async () => (await s.as(owner).get("/api/dashboard/collections/posts")).body.fields.map((f: { name: string }) => f.name);

  let tag: string;
  let published: { id: string; _updated_at: string };
  let draft: { id: string };

  beforeAll(async () => {
    s = await scenario(driver);
    workspaceId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = (await createTestSession(s.svc.context, workspaceId)).token;
    await s.as(owner).post("/api/dashboard/collections", { name: "tags", fields: [{ name: "label", type: "string" }] });
    tag = (await s.as(owner).post("/api/dashboard/collections/tags/entries", { label: "news" })).body.id;
    const created = await s.as(owner).post("/api/dashboard/collections", {
      name: "posts",
      access: "public",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "flag", type: "boolean" },
        { name: "meta", type: "json" },
        { name: "tag", type: "relation", collection: "tags" },
        { name: "tags", type: "relations", collection: "tags" },
        { name: "note", type: "text" },
      ],
    });
    expect(created.status).toBe(201);
    published = await entry({ title: "p", flag: true, meta: { a: [1, "x"] }, tag, tags: [tag], note: "kept", _status: "published" });
    draft = await entry({ title: "d", flag: false, tag: null, note: null });
  });
  afterAll(() => s?.close());

  it("renames a field: values of drafts and published entries move in one step, delivery shows the new name, no event fires", async () => {
    expect((await s.get("/api/v1/posts")).status).toBe(200); // warms the delivery cache
    s.clearEvents();
    for (const [from, to] of [["title", "headline"], ["flag", "pinned"], ["meta", "extra"], ["tag", "topic"], ["tags", "topics"]]) {
      const r = await patch({ rename: { from, to } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.meta).toEqual({ values: from === "title" || from === "flag" ? 2 : 1 });
    }
    expect(await fieldNames()).toEqual(["headline", "pinned", "extra", "topic", "topics", "note"]);
    const p = (await s.as(owner).get(`/api/dashboard/collections/posts/entries/${published.id}`)).body;
    expect(p).toMatchObject({ headline: "p", pinned: true, extra: { a: [1, "x"] }, topic: tag, topics: [tag], note: "kept" });
    for (const old of ["title", "flag", "meta", "tag", "tags"]) expect(Object.hasOwn(p, old)).toBe(false);
    expect(p._updated_at).toBe(published._updated_at); // no entry was edited
    const d = (await s.as(owner).get(`/api/dashboard/collections/posts/entries/${draft.id}`)).body;
    expect(d).toMatchObject({ headline: "d", pinned: false, topic: null, topics: [], note: null });
    const delivered = (await s.get("/api/v1/posts")).body;
    expect(delivered.data).toHaveLength(1);
    expect(delivered.data[0]).toMatchObject({ headline: "p", pinned: true, topics: [tag] });
    expect(Object.hasOwn(delivered.data[0], "title")).toBe(false);
    expect((await s.get("/api/v1/posts?filter[headline]=p")).body.data).toHaveLength(1);
    expect((await s.get("/api/v1/posts?filter[title]=p")).status).toBe(400);
    // The required rule moved with the field: a new entry without headline is refused.
    expect((await s.as(owner).post("/api/dashboard/collections/posts/entries", { pinned: true })).status).toBe(400);
    s.expectEvents([]);
  });

  it.each([
    [{ rename: { from: "nope", to: "x" } }, /^rename\.from: unknown field nope of collection posts \(fields: headline, /],
    [{ rename: { from: "note", to: "headline" } }, /^rename\.to: collection posts already has a field headline$/],
    [{ rename: { from: "note", to: "note" } }, /^rename\.to: is the field's current name$/],
    [{ rename: { from: "note", to: "_x" } }, /^rename\.to: "_x" is reserved/],
    [{ rename: { from: "note", to: "id" } }, /^rename\.to: id is a system field/],
    [{ add: { name: "headline", type: "string" } }, /^add\.name: collection posts already has a field headline$/],
    [{ add: { name: "x", type: "float" } }, /^add\.type: /],
    [{ add: { name: "x", type: "relation", collection: "ghosts" } }, /^fields\.6\.collection: unknown collection ghosts$/],
    [{ remove: "nope" }, /^remove: unknown field nope of collection posts/],
    [{ remove: "note", add: { name: "x", type: "string" } }, /^body: expected exactly one of/],
    [{}, /^body: expected exactly one of/],
    [{ rename: { from: "note" } }, /^rename\.to: /],
  ])("refuses %j with 400 and changes nothing", async (body, message) => {
    const before = await fieldNames();
    const r = await patch(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect(await fieldNames()).toEqual(before);
  });

  it("adds a field (optional: 200, values 0; required while entries exist: 409)", async () => {
    const r = await patch({ add: { name: "summary", type: "text" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ data: { name: "posts", access: "public" }, meta: { values: 0 } });
    expect(r.body.data.fields.at(-1)).toEqual({ name: "summary", type: "text" });
    const required = await patch({ add: { name: "slug", type: "string", required: true } });
    expect(required.status).toBe(409);
    expect(required.body).toMatchObject({ field: "slug", entries: 2 });
  });

  it("removes a field without values at once; one with values needs ?confirm=drop (409 with the count)", async () => {
    expect(await patch({ remove: "summary" })).toMatchObject({ status: 200, body: { meta: { values: 0 } } });
    expect(await patch({ remove: "note" })).toEqual({
      status: 409,
      body: { error: "Removing field note of collection posts drops 1 stored value; confirm the drop (confirm=drop) or clear it first", field: "note", values: 1, confirm: "drop" },
    });
    expect(await fieldNames()).toContain("note");
    expect((await patch({ remove: "topics" })).body).toMatchObject({ field: "topics", values: 1 });
    expect((await patch({ remove: "note" }, "?confirm=please")).status).toBe(400);
    const dropped = await patch({ remove: "note" }, "?confirm=drop");
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    expect(dropped.body.meta).toEqual({ values: 1 });
    expect((await patch({ remove: "topics" }, "?confirm=drop")).body.meta).toEqual({ values: 1 });
    const p = (await s.as(owner).get(`/api/dashboard/collections/posts/entries/${published.id}`)).body;
    expect(Object.hasOwn(p, "note") || Object.hasOwn(p, "topics")).toBe(false);
    // Re-adding starts empty: the values are gone, not hidden.
    expect((await patch({ add: { name: "note", type: "text" } })).status).toBe(200);
    expect((await s.as(owner).get(`/api/dashboard/collections/posts/entries/${published.id}`)).body.note).toBeNull();
    expect((await patch({ remove: "note" })).body.meta).toEqual({ values: 0 });
  });

  it("needs collections:write, like PUT", async () => {
    const reader = await createTestKey(s.svc.context, workspaceId, ["collections:read", "entries:write"]);
    expect(await patch({ add: { name: "x", type: "string" } }, "", reader.token)).toEqual({
      status: 403,
      body: { error: "Missing grant: collections:write", grant: "collections:write" },
    });
    const writer = await createTestKey(s.svc.context, workspaceId, ["collections:write"]);
    expect((await patch({ rename: { from: "extra", to: "meta" } }, "", writer.token)).status).toBe(200);
    expect((await s.patch("/api/dashboard/collections/posts", { remove: "meta" })).status).toBe(401);
    expect((await s.as(owner).patch("/api/dashboard/collections/nope", { remove: "x" })).status).toBe(404);
  });
});
