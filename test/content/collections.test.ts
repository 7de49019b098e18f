/**
 * Collection definitions over HTTP: validation, grants, schema changes checked against stored
 * entries (409 with a clear message), deletion rules. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";

describe.each(drivers)("collections on %s", (driver) => {
  let s: Scenario;
  let owner: string;
  let workspaceId: string;
  const entry = async (col: string, json: unknown) => {
    const r = await s.as(owner).post(`/api/dashboard/collections/${col}/entries`, json);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    workspaceId = ws.id;
    owner = (await createTestSession(s.svc.context, ws.id)).token;
  });
  afterAll(() => s?.close());

  it("creates, reads, lists a collection", async () => {
    const def = { name: "books", access: "public", fields: [{ name: "title", type: "string", required: true }] };
    const created = await s.as(owner).post("/api/dashboard/collections", def);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...def, rule: null });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await s.as(owner).get("/api/dashboard/collections/books")).body).toEqual(created.body);
    expect((await s.as(owner).get("/api/dashboard/collections")).body.data.map((c: { name: string }) => c.name)).toContain("books");
    expect((await s.as(owner).post("/api/dashboard/collections", def)).status).toBe(409);
    expect((await s.as(owner).get("/api/dashboard/collections/nope")).body).toEqual({ error: "Unknown collection: nope" });
  });

  it.each([
    [{ name: "Bad Name" }, /^name: must be 1-63 lowercase/],
    [{ name: "media" }, /^name: is reserved/],
    [{ name: "forms" }, /^name: is reserved/],
    [{ name: "accounts" }, /^name: is reserved/],
    [{ name: "x'; DROP TABLE collections; --" }, /^name: /],
    [{ name: "c1", access: "open" }, /^access: /],
    [{ name: "c1", fields: [{ name: "_x", type: "string" }] }, /^fields\.0\.name: "_x" is reserved: names starting with _ belong to the system fields/],
    [{ name: "c1", fields: [{ name: "id", type: "string" }] }, /^fields\.0\.name: id is a system field/],
    [{ name: "c1", fields: [{ name: "a", type: "float" }] }, /^fields\.0\.type: /],
    [{ name: "c1", fields: [{ name: "a", type: "relation" }] }, /^fields\.0\.collection: a relation field must name its target collection/],
    [{ name: "c1", fields: [{ name: "a", type: "relations", collection: "ghosts" }] }, /^fields\.0\.collection: unknown collection ghosts/],
    [{ name: "c1", fields: [{ name: "a", type: "string" }, { name: "a", type: "text" }] }, /^fields\.1\.name: duplicate field a/],
    [{ name: "c1", access: "public", rule: "r1" }, /^rule: a rule applies only to a gated collection/],
    [{ name: "c1", access: "gated", rule: "no-such-rule" }, /^rule: unknown rule no-such-rule/],
    [{ name: "c1", extra: true }, /Unrecognized key/],
  ])("refuses %j with 400", async (def, message) => {
    const r = await s.as(owner).post("/api/dashboard/collections", def);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it("allows a self-referencing relation", async () => {
    const r = await s.as(owner).post("/api/dashboard/collections", { name: "nodes", fields: [{ name: "parent", type: "relation", collection: "nodes" }] });
    expect(r.status).toBe(201);
    const root = await entry("nodes", {});
    expect((await entry("nodes", { parent: root.id })).parent).toBe(root.id);
  });

  it("checks grants: collections:read / :write; entries grants imply collections:read only", async () => {
    const entriesWriter = await createTestKey(s.svc.context, workspaceId, ["entries:write"]);
    expect((await s.as(entriesWriter.token).get("/api/dashboard/collections")).status).toBe(200);
    expect(await s.as(entriesWriter.token).post("/api/dashboard/collections", { name: "zz" })).toEqual({
      status: 403,
      body: { error: "Missing grant: collections:write", grant: "collections:write" },
    });
    const none = await createTestKey(s.svc.context, workspaceId, []);
    expect((await s.as(none.token).get("/api/dashboard/collections")).body).toEqual({
      error: "Missing grant: collections:read",
      grant: "collections:read",
    });
    expect((await s.get("/api/dashboard/collections")).status).toBe(401);
  });

  describe("schema changes are checked against stored entries", () => {
    beforeAll(async () => {
      await s.as(owner).post("/api/dashboard/collections", {
        name: "notes",
        fields: [
          { name: "title", type: "string" },
          { name: "count", type: "number" },
          { name: "label", type: "string" },
        ],
      });
      await entry("notes", { title: "a", count: 1, label: "x" });
      await entry("notes", { count: 2, label: "12" });
    });
    const put = (fields: unknown[], extra: object = {}) => s.as(owner).put("/api/dashboard/collections/notes", { fields, ...extra });

    it("refuses a field becoming required while entries lack it (409, clear message)", async () => {
      const r = await put([{ name: "title", type: "string", required: true }, { name: "count", type: "number" }, { name: "label", type: "string" }]);
      expect(r.status).toBe(409);
      expect(r.body).toEqual({
        error: "Cannot make field title of collection notes required: 1 stored entry has no value for it; give them one first",
        field: "title",
        entries: 1,
      });
    });

    it("refuses a new required field while entries exist", async () => {
      const r = await put([{ name: "title", type: "string" }, { name: "count", type: "number" }, { name: "label", type: "string" }, { name: "slug", type: "string", required: true }]);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ field: "slug", entries: 2 });
    });

    it("refuses a type change incompatible with stored values", async () => {
      const r = await put([{ name: "title", type: "string" }, { name: "count", type: "string" }, { name: "label", type: "string" }]);
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("Cannot change field count of collection notes to string: 2 stored entries hold values that do not fit; change or clear those values first");
      const rel = await put([{ name: "title", type: "string" }, { name: "count", type: "number" }, { name: "label", type: "relation", collection: "notes" }]);
      expect(rel.status).toBe(409);
      expect(rel.body.field).toBe("label");
    });

    it("accepts compatible changes and leaves the definition unchanged after a refusal", async () => {
      expect((await s.as(owner).get("/api/dashboard/collections/notes")).body.fields).toHaveLength(3);
      const r = await put([{ name: "title", type: "text" }, { name: "count", type: "number", required: true }, { name: "label", type: "string" }], { access: "public" });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.access).toBe("public");
    });

    it("removing a field holding values needs ?confirm=drop (409 with the count), which drops them (re-adding starts empty)", async () => {
      const fields = [{ name: "title", type: "text" }, { name: "count", type: "number", required: true }];
      expect(await put(fields)).toEqual({
        status: 409,
        body: { error: "Removing field label of collection notes drops 2 stored values; confirm the drop (confirm=drop) or clear them first", field: "label", values: 2, confirm: "drop" },
      });
      expect((await s.as(owner).get("/api/dashboard/collections/notes")).body.fields.map((f: { name: string }) => f.name)).toContain("label");
      expect((await s.as(owner).put("/api/dashboard/collections/notes?confirm=yes", { fields })).body).toEqual({ error: "confirm: expected drop", field: "confirm" });
      expect((await s.as(owner).put("/api/dashboard/collections/notes?confirm=drop", { fields })).status).toBe(200);
      const list = (await s.as(owner).get("/api/dashboard/collections/notes/entries")).body.data;
      expect(list.every((e: object) => !Object.hasOwn(e, "label"))).toBe(true);
      const readd = await put([{ name: "title", type: "text" }, { name: "count", type: "number", required: true }, { name: "label", type: "number" }]);
      expect(readd.status, JSON.stringify(readd.body)).toBe(200);
      const after = (await s.as(owner).get("/api/dashboard/collections/notes/entries")).body.data;
      expect(after.map((e: { label: unknown }) => e.label)).toEqual([null, null]);
    });

    it("refuses renaming through PUT", async () => {
      const r = await s.as(owner).put("/api/dashboard/collections/notes", { name: "other", fields: [] });
      expect(r).toEqual({ status: 400, body: { error: "name: renaming a collection is not supported", field: "name" } });
    });
  });

  it("deletes only empty, unreferenced collections", async () => {
    await s.as(owner).post("/api/dashboard/collections", { name: "cats", fields: [{ name: "n", type: "string" }] });
    await s.as(owner).post("/api/dashboard/collections", { name: "pets", fields: [{ name: "cat", type: "relation", collection: "cats" }] });
    const cat = await entry("cats", { n: "tom" });
    const full = await s.as(owner).delete("/api/dashboard/collections/cats");
    expect(full).toEqual({ status: 409, body: { error: "Collection cats still holds 1 stored entry; delete them first", collection: "cats", entries: 1 } });
    await s.as(owner).delete(`/api/dashboard/collections/cats/entries/${cat.id}`);
    const referenced = await s.as(owner).delete("/api/dashboard/collections/cats");
    expect(referenced.status).toBe(409);
    expect(referenced.body.error).toBe("Collection cats is the target of field cat of collection pets");
    expect((await s.as(owner).delete("/api/dashboard/collections/pets")).status).toBe(200);
    expect((await s.as(owner).delete("/api/dashboard/collections/cats")).status).toBe(200);
    expect((await s.as(owner).get("/api/dashboard/collections/cats")).status).toBe(404);
  });
});
