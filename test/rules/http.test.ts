/**
 * Rules over HTTP (DESIGN §4.2, spec 4.1, 5.6): CRUD with validation and grants, a gated
 * collection read with and without a satisfying account session (end users created through
 * /api/dashboard/users, sessions from POST /api/v1/accounts/login), and the refusal to delete a
 * rule still in use. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("rules and gated collections on %s", (driver) => {
  let s: Scenario;
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const ok = async (path: string, method: string, json: unknown) => {
    const res = await s.as(tok.owner).send(method, path, json);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  const endUser = async (email: string, attributes: Record<string, unknown>) => {
    const user = await ok("/api/dashboard/users", "POST", { email, password: PASSWORD, attributes });
    const login = await s.post("/api/v1/accounts/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { id: user.id as string, token: login.body.token as string };
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.rulesRead = (await createTestKey(ctx, ws.id, ["rules:read"])).token;
    tok.rulesWrite = (await createTestKey(ctx, ws.id, ["rules:write"])).token;
    tok.entriesRead = (await createTestKey(ctx, ws.id, ["entries:read"])).token;
    tok.none = (await createTestKey(ctx, ws.id, [])).token;
    ids.pro = (await ok("/api/dashboard/rules", "POST", { name: "pro members", condition: { all: [{ signed_in: true }, { account: { field: "plan", in: ["pro", "team"] } }] } })).id;
    ids.anyone = (await ok("/api/dashboard/rules", "POST", { name: "signed in", condition: { signed_in: true } })).id;
    await ok("/api/dashboard/collections", "POST", { name: "vip", access: "gated", rule: ids.pro, fields: [{ name: "title", type: "string" }] });
    await ok("/api/dashboard/collections/vip/entries", "POST", { title: "members only", _status: "published" });
    await ok("/api/dashboard/collections/vip/entries", "POST", { title: "a draft" });
    const pro = await endUser("pro@example.com", { plan: "pro" });
    const free = await endUser("free@example.com", { plan: "free" });
    Object.assign(tok, { pro: pro.token, free: free.token });
    ids.free = free.id;
  });
  afterAll(() => s?.close());

  describe("CRUD", () => {
    it("lists, reads, creates (201) and replaces rules; grants per route", async () => {
      const list = await s.as(tok.rulesRead).get("/api/dashboard/rules");
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: Json) => r.name)).toEqual(["pro members", "signed in"]);
      expect(list.body.meta).toEqual({ total: 2 });
      expect((await s.as(tok.rulesRead).get(`/api/dashboard/rules/${ids.anyone}`)).body).toMatchObject({ id: ids.anyone, condition: { signed_in: true } });
      expect((await s.as(tok.rulesRead).post("/api/dashboard/rules", { name: "x", condition: { signed_in: true } })).body).toEqual({
        error: "Missing grant: rules:write",
        grant: "rules:write",
      });
      expect((await s.as(tok.none).get("/api/dashboard/rules")).status).toBe(403);
      expect((await s.as(tok.rulesWrite).get("/api/dashboard/rules")).status).toBe(200); // write implies read
      const made = await s.as(tok.rulesWrite).post("/api/dashboard/rules", { name: "admins", condition: { account: { field: "roles", eq: "admin" } } });
      expect(made.status).toBe(201);
      const put = await s.as(tok.rulesWrite).put(`/api/dashboard/rules/${made.body.id}`, { name: "admins", condition: { account: { field: "roles", in: ["admin", "owner"] } } });
      expect(put.status).toBe(200);
      expect(put.body.condition).toEqual({ account: { field: "roles", in: ["admin", "owner"] } });
      expect((await s.as(tok.rulesWrite).delete(`/api/dashboard/rules/${made.body.id}`)).status).toBe(204);
      expect((await s.as(tok.rulesRead).get(`/api/dashboard/rules/${made.body.id}`)).status).toBe(404);
    });

    it.each([
      [{ name: "bad", condition: { signed_in: "yes" } }, "condition.signed_in: must be true"],
      [{ name: "bad", condition: { account: { field: "plan", gt: 3 } } }, undefined],
      [{ name: "bad", condition: { all: [] } }, "condition.all: must list at least one condition"],
      [{ name: "bad" }, "condition: is required"],
    ])("validates on save: %j → 400", async (body, message?: string) => {
      const res = await s.as(tok.rulesWrite).post("/api/dashboard/rules", body);
      expect(res.status).toBe(400);
      if (message) expect(res.body.error).toBe(message);
      else expect(res.body.error).toMatch(/^condition\.account/);
    });

    it("names are unique per workspace (409)", async () => {
      const res = await s.as(tok.rulesWrite).post("/api/dashboard/rules", { name: "signed in", condition: { signed_in: true } });
      expect(res.status).toBe(409);
    });
  });

  describe("gated read (spec 4.1, 5.6)", () => {
    const read = (token?: string) => s.as(token).get("/api/v1/vip");

    it("an account session satisfying the rule reads published entries only", async () => {
      const res = await read(tok.pro);
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: Json) => e.title)).toEqual(["members only"]);
    });

    it("an account session not satisfying the rule → 403 naming the collection", async () => {
      const res = await read(tok.free);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "Collection vip is gated: this account does not satisfy its rule", collection: "vip" });
    });

    it("a key with entries:read always reads; without it 403; nothing at all 401", async () => {
      expect((await read(tok.entriesRead)).status).toBe(200);
      expect((await read(tok.none)).body).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
      expect((await read()).body).toEqual({ error: "Unauthorized" });
    });

    it("attribute and rule changes count on the very next request", async () => {
      await ok(`/api/dashboard/users/${ids.free}`, "PATCH", { attributes: { plan: "team" } });
      expect((await read(tok.free)).status).toBe(200);
      await ok(`/api/dashboard/rules/${ids.pro}`, "PUT", { name: "pro members", condition: { account: { field: "plan", eq: "pro" } } });
      expect((await read(tok.free)).status).toBe(403);
      expect((await read(tok.pro)).status).toBe(200);
    });
  });

  describe("deleting a rule in use", () => {
    it("is refused with 409 naming the collection, and allowed once no collection names it", async () => {
      const refused = await s.as(tok.rulesWrite).delete(`/api/dashboard/rules/${ids.pro}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain("vip");
      expect(refused.body.collections).toEqual(["vip"]);
      await ok("/api/dashboard/collections/vip", "PUT", { access: "gated", rule: ids.anyone, fields: [{ name: "title", type: "string" }] });
      expect((await s.as(tok.free).get("/api/v1/vip")).status).toBe(200);
      expect((await s.as(tok.rulesWrite).delete(`/api/dashboard/rules/${ids.pro}`)).status).toBe(204);
    });
  });
});
