/**
 * Grants that would escalate (spec 5.4.3): collections:write alone cannot make a private
 * collection public (or gated) and then read it anonymously; rules:write alone cannot loosen the
 * rule gating a collection and then read it with any account. Both need entries:read; owners
 * bypass. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";
const fields = [{ name: "title", type: "string" }];

describe.each(drivers)("changes that open entries on %s", (driver) => {
  let s: Scenario;
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const ok = async (path: string, method: string, json: unknown, token = tok.owner) => {
    const res = await s.as(token).send(method, path, json);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  const refused = (res: { status: number; body: Json }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.colWrite = (await createTestKey(ctx, ws.id, ["collections:write"])).token;
    tok.colWriteEntriesRead = (await createTestKey(ctx, ws.id, ["collections:write", "entries:read"])).token;
    tok.rulesWrite = (await createTestKey(ctx, ws.id, ["rules:write"])).token;
    tok.rulesWriteEntriesRead = (await createTestKey(ctx, ws.id, ["rules:write", "entries:read"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["collections:write", "rules:write"] })).token;
    ids.staff = (await ok("/api/dashboard/rules", "POST", { name: "staff", condition: { account: { field: "role", eq: "staff" } } })).id;
    ids.other = (await ok("/api/dashboard/rules", "POST", { name: "anyone", condition: { signed_in: true } })).id;
    await ok("/api/dashboard/collections", "POST", { name: "secret", access: "private", fields });
    await ok("/api/dashboard/collections/secret/entries", "POST", { title: "private plans", _status: "published" });
    await ok("/api/dashboard/collections", "POST", { name: "staffonly", access: "gated", rule: ids.staff, fields });
    await ok("/api/dashboard/collections/staffonly/entries", "POST", { title: "staff memo", _status: "published" });
    await ok("/api/dashboard/users", "POST", { email: "guest@example.com", password: PASSWORD, attributes: { role: "guest" } });
    tok.guest = (await s.post("/api/v1/accounts/login", { email: "guest@example.com", password: PASSWORD })).body.token;
  });
  afterAll(() => s?.close());

  it("collections:write alone cannot make a private collection public and read it anonymously", async () => {
    refused(await s.as(tok.colWrite).put("/api/dashboard/collections/secret", { access: "public", fields }));
    expect((await s.get("/api/v1/secret")).status).toBe(401);
    refused(await s.as(tok.colWrite).put("/api/dashboard/collections/secret", { access: "gated", rule: ids.other, fields }));
    refused(await s.as(tok.member).put("/api/dashboard/collections/secret", { access: "public", fields }));
    expect((await s.as(tok.owner).get("/api/dashboard/collections/secret")).body.access).toBe("private");
  });

  it("collections:write alone cannot point a gated collection at a looser rule or make it public", async () => {
    refused(await s.as(tok.colWrite).put("/api/dashboard/collections/staffonly", { access: "gated", rule: ids.other, fields }));
    refused(await s.as(tok.colWrite).put("/api/dashboard/collections/staffonly", { access: "public", fields }));
    expect((await s.as(tok.guest).get("/api/v1/staffonly")).status).toBe(403);
    // Unchanged access (other definition changes) needs nothing more.
    await ok("/api/dashboard/collections/staffonly", "PUT", { access: "gated", rule: ids.staff, fields: [...fields, { name: "note", type: "text" }] }, tok.colWrite);
  });

  it("collections:write alone cannot create a public or gated collection; private is fine", async () => {
    refused(await s.as(tok.colWrite).post("/api/dashboard/collections", { name: "open1", access: "public", fields }));
    refused(await s.as(tok.colWrite).post("/api/dashboard/collections", { name: "open2", access: "gated", rule: ids.other, fields }));
    expect((await s.as(tok.owner).get("/api/dashboard/collections/open1")).status).toBe(404);
    expect((await s.as(tok.colWrite).post("/api/dashboard/collections", { name: "closed", access: "private", fields })).status).toBe(201);
  });

  it("closing needs nothing more; opening with entries:read (or as owner) works", async () => {
    await ok("/api/dashboard/collections", "POST", { name: "opened", access: "private", fields }, tok.colWriteEntriesRead);
    await ok("/api/dashboard/collections/opened", "PUT", { access: "public", fields }, tok.colWriteEntriesRead);
    expect((await s.get("/api/v1/opened")).status).toBe(200);
    await ok("/api/dashboard/collections/opened", "PUT", { access: "private", fields }, tok.colWrite);
    expect((await s.get("/api/v1/opened")).status).toBe(401);
    await ok("/api/dashboard/collections/opened", "PUT", { access: "gated", rule: ids.staff, fields }, tok.owner);
  });

  it("rules:write alone cannot loosen the rule gating a collection and read it with any account", async () => {
    refused(await s.as(tok.rulesWrite).put(`/api/dashboard/rules/${ids.staff}`, { name: "staff", condition: { signed_in: true } }));
    refused(await s.as(tok.member).put(`/api/dashboard/rules/${ids.staff}`, { name: "staff", condition: { signed_in: true } }));
    expect((await s.as(tok.guest).get("/api/v1/staffonly")).status).toBe(403);
    expect((await s.as(tok.owner).get(`/api/dashboard/rules/${ids.staff}`)).body.condition).toEqual({ account: { field: "role", eq: "staff" } });
  });

  it("rules:write alone still creates rules, changes unused ones and renames used ones", async () => {
    const fresh = await ok("/api/dashboard/rules", "POST", { name: "fresh", condition: { signed_in: true } }, tok.rulesWrite);
    await ok(`/api/dashboard/rules/${fresh.id}`, "PUT", { name: "fresh", condition: { account: { field: "plan", eq: "pro" } } }, tok.rulesWrite);
    await ok(`/api/dashboard/rules/${ids.staff}`, "PUT", { name: "staff members", condition: { account: { field: "role", eq: "staff" } } }, tok.rulesWrite);
    expect((await s.as(tok.rulesWrite).delete(`/api/dashboard/rules/${ids.staff}`)).status).toBe(409);
    expect((await s.as(tok.rulesWrite).delete(`/api/dashboard/rules/${fresh.id}`)).status).toBe(204);
  });

  it("with entries:read a rule in use can change, and the gate follows", async () => {
    await ok(`/api/dashboard/rules/${ids.staff}`, "PUT", { name: "staff", condition: { signed_in: true } }, tok.rulesWriteEntriesRead);
    expect((await s.as(tok.guest).get("/api/v1/staffonly")).status).toBe(200);
  });
});
