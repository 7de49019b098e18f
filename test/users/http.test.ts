/**
 * End users in the dashboard (spec 2.2 users:*, Identity only): list, create, change, deactivate
 * (the session is refused on the very next request), delete (sessions deleted), and no personal
 * data in the logs. Real HTTP, both drivers.
 */
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";

const PASSWORD = "correct horse battery staple";

describe.each(drivers)("end users on %s", (driver) => {
  let s: Scenario;
  const logs: string[] = [];
  const tok: Record<string, string> = {};
  const login = (email: string, password = PASSWORD) => s.post("/api/v1/accounts/login", { email, password });

  beforeAll(async () => {
    const logger = createConsola({ level: 5, reporters: [{ log: (entry) => void logs.push(JSON.stringify(entry.args)) }] });
    s = await scenario(driver, { logger });
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    const plain = await ctx.workspaces.create({ slug: "plain", hosts: ["plain.localhost"] });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.plainOwner = (await createTestSession(ctx, plain.id)).token;
    tok.usersRead = (await createTestKey(ctx, ws.id, ["users:read"])).token;
    tok.usersWrite = (await createTestKey(ctx, ws.id, ["users:write"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["entries:read"] })).token;
  });
  afterAll(() => s?.close());

  it("a workspace without Identity answers 404 saying so", async () => {
    const res = await s.as(tok.plainOwner, { host: "plain.localhost" }).get("/api/dashboard/users");
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/Identity is not enabled/);
    expect((await s.as(tok.plainOwner, { host: "plain.localhost" }).post("/api/dashboard/users", { email: "a@example.com", password: PASSWORD })).status).toBe(404);
  });

  it("creates (201) and lists end users; never a password hash; grants per route", async () => {
    const made = await s.as(tok.usersWrite).post("/api/dashboard/users", { email: " Grace@Example.com ", password: PASSWORD, attributes: { plan: "pro", roles: ["editor"] } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      email: "grace@example.com",
      email_verified: false,
      attributes: { plan: "pro", roles: ["editor"] },
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await s.as(tok.usersRead).get("/api/dashboard/users");
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total: 1, limit: 50, offset: 0 });
    expect(JSON.stringify(list.body)).not.toMatch(/password|scrypt/);
    expect((await s.as(tok.usersRead).post("/api/dashboard/users", { email: "x@example.com", password: PASSWORD })).body.grant).toBe("users:write");
    expect((await s.as(tok.member).get("/api/dashboard/users")).body).toEqual({ error: "Missing grant: users:read", grant: "users:read" });
    expect((await login("grace@example.com")).status).toBe(200);
  });

  it.each([
    [{ email: "nope", password: PASSWORD }, "email"],
    [{ email: "a@example.com", password: "short" }, "password"],
    [{ email: "a@example.com" }, "password"],
    [{ email: "a@example.com", password: PASSWORD, attributes: { email: "x" } }, "attributes.email"],
    [{ email: "a@example.com", password: PASSWORD, attributes: { deep: { x: 1 } } }, "attributes.deep"],
    [{ email: "a@example.com", password: PASSWORD, role: "admin" }, "role"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const res = await s.as(tok.usersWrite).post("/api/dashboard/users", body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it("a taken email is 409", async () => {
    expect((await s.as(tok.usersWrite).post("/api/dashboard/users", { email: "grace@example.com", password: PASSWORD })).status).toBe(409);
  });

  it("deactivation stops the session on the very next request; reactivation needs a new sign-in", async () => {
    const user = (await s.as(tok.usersWrite).post("/api/dashboard/users", { email: "linus@example.com", password: PASSWORD })).body;
    const session = (await login("linus@example.com")).body.token as string;
    expect((await s.as(session).get("/api/v1/accounts/me")).status).toBe(200);
    const off = await s.as(tok.usersWrite).patch(`/api/dashboard/users/${user.id}`, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await s.as(session).get("/api/v1/accounts/me")).body).toEqual({ error: "Unauthorized" });
    expect((await login("linus@example.com")).status).toBe(401);
    await s.as(tok.usersWrite).patch(`/api/dashboard/users/${user.id}`, { active: true });
    expect((await s.as(session).get("/api/v1/accounts/me")).status).toBe(401);
    const again = (await login("linus@example.com")).body.token as string;
    expect((await s.as(again).get("/api/v1/accounts/me")).status).toBe(200);
  });

  it("changes email, attributes and password (a new password ends sessions)", async () => {
    const user = (await s.as(tok.usersWrite).post("/api/dashboard/users", { email: "ken@example.com", password: PASSWORD })).body;
    const session = (await login("ken@example.com")).body.token as string;
    const changed = await s.as(tok.usersWrite).patch(`/api/dashboard/users/${user.id}`, { email: "ken@bell.example", attributes: { team: "unix" } });
    expect(changed.body).toMatchObject({ email: "ken@bell.example", attributes: { team: "unix" }, active: true });
    expect((await s.as(session).get("/api/v1/accounts/me")).body.attributes).toEqual({ team: "unix" });
    await s.as(tok.usersWrite).patch(`/api/dashboard/users/${user.id}`, { password: "another long password" });
    expect((await s.as(session).get("/api/v1/accounts/me")).status).toBe(401);
    expect((await login("ken@bell.example", "another long password")).status).toBe(200);
    expect((await s.as(tok.usersWrite).patch(`/api/dashboard/users/${user.id}`, { active: "no" })).body.field).toBe("active");
    expect((await s.as(tok.usersWrite).patch("/api/dashboard/users/00000000-0000-4000-8000-000000000000", { active: false })).status).toBe(404);
  });

  it("delete removes the user and their sessions", async () => {
    const user = (await s.as(tok.usersWrite).post("/api/dashboard/users", { email: "barbara@example.com", password: PASSWORD })).body;
    const session = (await login("barbara@example.com")).body.token as string;
    expect((await s.as(tok.usersRead).delete(`/api/dashboard/users/${user.id}`)).status).toBe(403);
    expect((await s.as(tok.usersWrite).delete(`/api/dashboard/users/${user.id}`)).status).toBe(204);
    expect((await s.as(session).get("/api/v1/accounts/me")).status).toBe(401);
    const rows = await s.svc.context.sql.all("SELECT token_hash FROM account_sessions WHERE user_id = ?", [user.id]);
    expect(rows).toEqual([]);
    expect((await s.as(tok.usersRead).get(`/api/dashboard/users/${user.id}`)).status).toBe(404);
    expect((await s.as(tok.usersWrite).delete(`/api/dashboard/users/${user.id}`)).status).toBe(404);
  });

  it("logs no personal data", () => {
    const all = logs.join("\n");
    for (const pii of ["grace@example.com", "linus@example.com", "ken@", "barbara@", PASSWORD, "unix"]) expect(all).not.toContain(pii);
  });
});
