/**
 * Field names are data, not JavaScript: collections, forms and end-user attributes may use names
 * such as `constructor`, `toString`, `valueOf` and `hasOwnProperty`, and what reads them never
 * finds Object.prototype's methods (an optional `toString` stays optional, a `constructor` field
 * never locks its collection). `__proto__` and names that would shadow an entry's system fields
 * are a 400 naming the field. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceEvent } from "../../src/core/events.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

const FIELDS = [
  { name: "constructor", type: "string", required: true },
  { name: "toString", type: "string" },
  { name: "valueOf", type: "number" },
  { name: "hasOwnProperty", type: "boolean" },
  { name: "toLocaleString", type: "relation", collection: "protos" },
  { name: "isPrototypeOf", type: "relations", collection: "protos" },
];

describe.each(drivers)("field names that Object.prototype also has, on %s", (driver) => {
  let s: Scenario;
  let owner: string;
  let editor: string;
  const events: ServiceEvent[] = [];
  const ok = (res: { status: number; body: Json }, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  const refused = (res: { status: number; body: Json }, message: RegExp) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(message);
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    owner = (await createTestSession(ctx, ws.id)).token;
    editor = (await createTestKey(ctx, ws.id, ["collections:write", "entries:write", "forms:write", "submissions:read", "users:write"])).token;
    ctx.bus.on((e) => events.push(e));
  });
  afterAll(() => s?.close());

  it("a collection with them is created; an entry is created, edited, published, delivered, filtered, unpublished", async () => {
    ok(await s.as(owner).post("/api/dashboard/collections", { name: "protos", access: "public", fields: FIELDS }), 201);
    // Only the required field: the optional ones are absent, not Object.prototype's functions.
    const created = ok(await s.as(editor).post("/api/dashboard/collections/protos/entries", { constructor: "first" }), 201);
    expect(created).toMatchObject({ constructor: "first", toString: null, valueOf: null, hasOwnProperty: null, toLocaleString: null, isPrototypeOf: [] });
    expect((events.at(-1)!.data as Json).entry).toMatchObject({ constructor: "first", toString: null, valueOf: null, hasOwnProperty: null, toLocaleString: null });
    refused(await s.as(editor).post("/api/dashboard/collections/protos/entries", { toString: "no constructor" }), /^constructor: is required/);

    const other = ok(await s.as(editor).post("/api/dashboard/collections/protos/entries", { constructor: "second", valueOf: 1, _status: "published" }), 201);
    const patch = { toString: "text", valueOf: 7, hasOwnProperty: true, toLocaleString: other.id, isPrototypeOf: [other.id] };
    const edited = ok(await s.as(editor).patch(`/api/dashboard/collections/protos/entries/${created.id}`, patch));
    expect(edited).toMatchObject({ constructor: "first", ...patch, _status: "draft" });
    // A patch that names none of them keeps them.
    expect(ok(await s.as(editor).patch(`/api/dashboard/collections/protos/entries/${created.id}`, { _status: "published" }))).toMatchObject({ ...patch, _status: "published" });

    const one = ok(await s.get(`/api/v1/protos/${created.id}`)).data;
    expect(one).toMatchObject({ constructor: "first", ...patch });
    const list = async (query: string) => ok(await s.get(`/api/v1/protos?${query}`)).data.map((e: Json) => e.constructor);
    expect(await list("filter[constructor]=first")).toEqual(["first"]);
    expect(await list("filter[valueOf][gt]=2")).toEqual(["first"]);
    expect(await list("filter[toString][null]=true")).toEqual(["second"]);
    expect(await list("filter[hasOwnProperty]=true&sort=toString")).toEqual(["first"]);
    expect(await list("sort=-valueOf")).toEqual(["first", "second"]);
    const expanded = ok(await s.get(`/api/v1/protos/${created.id}?expand=toLocaleString,isPrototypeOf&fields=toLocaleString`)).data;
    expect(expanded.toLocaleString).toMatchObject({ id: other.id, constructor: "second" });
    expect(expanded.isPrototypeOf).toMatchObject([{ id: other.id }]);

    ok(await s.as(editor).patch(`/api/dashboard/collections/protos/entries/${created.id}`, { _status: "draft" }));
    expect((await s.get(`/api/v1/protos/${created.id}`)).status).toBe(404);
  });

  it("adding such a field later locks nobody out: the owner still edits and unpublishes", async () => {
    ok(await s.as(owner).post("/api/dashboard/collections", { name: "notes", access: "public", fields: [{ name: "title", type: "string" }] }), 201);
    const note = ok(await s.as(owner).post("/api/dashboard/collections/notes/entries", { title: "hi", _status: "published" }), 201);
    ok(await s.as(editor).patch("/api/dashboard/collections/notes", { add: { name: "constructor", type: "string" } }));
    ok(await s.as(editor).patch("/api/dashboard/collections/notes", { add: { name: "valueOf", type: "number", required: false } }));
    expect(ok(await s.as(owner).patch(`/api/dashboard/collections/notes/entries/${note.id}`, { _status: "draft" }))).toMatchObject({ constructor: null, valueOf: null, _status: "draft" });
    expect(ok(await s.as(owner).patch(`/api/dashboard/collections/notes/entries/${note.id}`, { constructor: "set" }))).toMatchObject({ constructor: "set" });
  });

  it.each([
    ["__proto__", /"__proto__" is reserved/],
    ["_status", /"_status" is reserved/],
    ["_draft", /"_draft" is reserved/],
    ["id", /id is a system field/],
  ])("a field named %s is a 400 naming it", async (name, message) => {
    const res = await s.as(owner).post("/api/dashboard/collections", { name: "bad", fields: [{ name, type: "string" }] });
    refused(res, message);
    expect(res.body.field).toBe("fields.0.name");
    refused(await s.as(owner).patch("/api/dashboard/collections/notes", { add: { name, type: "string" } }), message);
    expect((await s.as(owner).get("/api/dashboard/collections/bad")).status).toBe(404);
  });

  it("an entry body with a __proto__ key is a 400 naming it", async () => {
    const res = await s.as(editor).post("/api/dashboard/collections/protos/entries", undefined, {
      headers: { "content-type": "application/json" },
      body: '{"constructor":"x","__proto__":{"toString":"y"}}',
    });
    refused(res, /__proto__/);
  });

  it("forms: such field names take submissions, stay optional, and a later optional field of that name needs no stored value", async () => {
    const form = { slug: "contact", name: "Contact", fields: [{ name: "constructor", type: "string", required: true }, { name: "toString", type: "string" }, { name: "hasOwnProperty", type: "boolean" }] };
    ok(await s.as(editor).post("/api/dashboard/forms", form), 201);
    ok(await s.post("/api/v1/forms/contact/submit", { constructor: "json" }), 201);
    const urlencoded = { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "constructor=urlencoded&hasOwnProperty=on" };
    ok(await s.post("/api/v1/forms/contact/submit", undefined, urlencoded), 201);
    refused(await s.post("/api/v1/forms/contact/submit", { toString: "only" }), /^constructor: is required/);
    const rows = ok(await s.as(editor).get("/api/dashboard/forms/contact/submissions")).data.map((s: Json) => s.data);
    expect(rows).toEqual(expect.arrayContaining<Json>([{ constructor: "json" }, { constructor: "urlencoded", hasOwnProperty: true }]));
    // A new optional number field named valueOf: stored submissions have no value for it, which fits.
    ok(await s.as(editor).put("/api/dashboard/forms/contact", { ...form, fields: [...form.fields, { name: "valueOf", type: "number" }] }));
  });

  it.each([
    [{ slug: "f1", name: "F", fields: [{ name: "__proto__", type: "string" }] }, /^fields\.0\.name: "__proto__" is reserved/],
    [{ slug: "f2", name: "F", fields: [{ name: "_submitted_at", type: "string" }] }, /^fields\.0\.name: "_submitted_at" is reserved/],
    [{ slug: "f3", name: "F", honeypot: "__proto__" }, /^honeypot: __proto__ is reserved/],
  ])("forms refuse %j naming the field", async (body, message) => {
    refused(await s.as(editor).post("/api/dashboard/forms", body), message);
  });

  it("end-user attributes named like them are stored, returned and read by rules; __proto__ is a 400", async () => {
    const attributes = { constructor: "staff", toString: "x", valueOf: 3 };
    const user = ok(await s.as(editor).post("/api/dashboard/users", { email: "ada@example.com", password: PASSWORD, attributes }), 201);
    expect(user.attributes).toEqual(attributes);
    const rule = ok(await s.as(owner).post("/api/dashboard/rules", { name: "staff", condition: { account: { field: "constructor", eq: "staff" } } }), 201);
    ok(await s.as(owner).post("/api/dashboard/collections", { name: "memos", access: "gated", rule: rule.id, fields: [{ name: "title", type: "string" }] }), 201);
    ok(await s.as(owner).post("/api/dashboard/collections/memos/entries", { title: "memo", _status: "published" }), 201);
    const session = ok(await s.post("/api/v1/accounts/login", { email: "ada@example.com", password: PASSWORD })).token;
    expect(ok(await s.as(session).get("/api/v1/memos")).data).toHaveLength(1);
    const res = await s.as(editor).patch(`/api/dashboard/users/${user.id}`, undefined, {
      headers: { "content-type": "application/json" },
      body: '{"attributes":{"__proto__":{"constructor":"staff"}}}',
    });
    refused(res, /__proto__/);
    expect(ok(await s.as(editor).get(`/api/dashboard/users/${user.id}`)).attributes).toEqual(attributes);
  });
});
