/**
 * End users in the dashboard (spec 2.2 users:*, Identity only): list, create, change, deactivate
 * (the session is refused on the very next request), delete (sessions deleted), and no personal
 * data in the logs. Real HTTP, both drivers.
 */
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("end users on %s", (driver) => {
  let t: TestServer;
  const logs: string[] = [];
  const tok: Record<string, string> = {};
  const req = async (path: string, token?: string, method = "GET", json?: unknown, host?: string) => {
    const res = await t.request(path, { method, token, json, host });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const login = (email: string, password = PASSWORD) => req("/api/v1/accounts/login", undefined, "POST", { email, password });

  beforeAll(async () => {
    const logger = createConsola({ level: 5, reporters: [{ log: (entry) => void logs.push(JSON.stringify(entry.args)) }] });
    t = await startTestServer(driver, { logger });
    const ctx = t.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    const plain = await ctx.workspaces.create({ slug: "plain", hosts: ["plain.localhost"] });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.plainOwner = (await createTestSession(ctx, plain.id)).token;
    tok.usersRead = (await createTestKey(ctx, ws.id, ["users:read"])).token;
    tok.usersWrite = (await createTestKey(ctx, ws.id, ["users:write"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["entries:read"] })).token;
  });
  afterAll(() => t?.close());

  it("a workspace without Identity answers 404 saying so", async () => {
    const res = await req("/api/dashboard/users", tok.plainOwner, "GET", undefined, "plain.localhost");
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/Identity is not enabled/);
    expect((await req("/api/dashboard/users", tok.plainOwner, "POST", { email: "a@example.com", password: PASSWORD }, "plain.localhost")).status).toBe(404);
  });

  it("creates (201) and lists end users; never a password hash; grants per route", async () => {
    const made = await req("/api/dashboard/users", tok.usersWrite, "POST", { email: " Grace@Example.com ", password: PASSWORD, attributes: { plan: "pro", roles: ["editor"] } });
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
    const list = await req("/api/dashboard/users", tok.usersRead);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total: 1, limit: 50, offset: 0 });
    expect(JSON.stringify(list.body)).not.toMatch(/password|scrypt/);
    expect((await req("/api/dashboard/users", tok.usersRead, "POST", { email: "x@example.com", password: PASSWORD })).body.grant).toBe("users:write");
    expect((await req("/api/dashboard/users", tok.member)).body).toEqual({ error: "Missing grant: users:read", grant: "users:read" });
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
    const res = await req("/api/dashboard/users", tok.usersWrite, "POST", body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it("a taken email is 409", async () => {
    expect((await req("/api/dashboard/users", tok.usersWrite, "POST", { email: "grace@example.com", password: PASSWORD })).status).toBe(409);
  });

  it("deactivation stops the session on the very next request; reactivation needs a new sign-in", async () => {
    const user = (await req("/api/dashboard/users", tok.usersWrite, "POST", { email: "linus@example.com", password: PASSWORD })).body;
    const session = (await login("linus@example.com")).body.token as string;
    expect((await req("/api/v1/accounts/me", session)).status).toBe(200);
    const off = await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "PATCH", { active: false });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await req("/api/v1/accounts/me", session)).body).toEqual({ error: "Unauthorized" });
    expect((await login("linus@example.com")).status).toBe(401);
    await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "PATCH", { active: true });
    expect((await req("/api/v1/accounts/me", session)).status).toBe(401);
    const again = (await login("linus@example.com")).body.token as string;
    expect((await req("/api/v1/accounts/me", again)).status).toBe(200);
  });

  it("changes email, attributes and password (a new password ends sessions)", async () => {
    const user = (await req("/api/dashboard/users", tok.usersWrite, "POST", { email: "ken@example.com", password: PASSWORD })).body;
    const session = (await login("ken@example.com")).body.token as string;
    const changed = await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "PATCH", { email: "ken@bell.example", attributes: { team: "unix" } });
    expect(changed.body).toMatchObject({ email: "ken@bell.example", attributes: { team: "unix" }, active: true });
    expect((await req("/api/v1/accounts/me", session)).body.attributes).toEqual({ team: "unix" });
    await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "PATCH", { password: "another long password" });
    expect((await req("/api/v1/accounts/me", session)).status).toBe(401);
    expect((await login("ken@bell.example", "another long password")).status).toBe(200);
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "PATCH", { active: "no" })).body.field).toBe("active");
    expect((await req("/api/dashboard/users/00000000-0000-4000-8000-000000000000", tok.usersWrite, "PATCH", { active: false })).status).toBe(404);
  });

  it("delete removes the user and their sessions", async () => {
    const user = (await req("/api/dashboard/users", tok.usersWrite, "POST", { email: "barbara@example.com", password: PASSWORD })).body;
    const session = (await login("barbara@example.com")).body.token as string;
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersRead, "DELETE")).status).toBe(403);
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "DELETE")).status).toBe(204);
    expect((await req("/api/v1/accounts/me", session)).status).toBe(401);
    const rows = await t.svc.context.sql.all("SELECT token_hash FROM account_sessions WHERE user_id = ?", [user.id]);
    expect(rows).toEqual([]);
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersRead)).status).toBe(404);
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "DELETE")).status).toBe(404);
  });

  it("logs no personal data", () => {
    const all = logs.join("\n");
    for (const pii of ["grace@example.com", "linus@example.com", "ken@", "barbara@", PASSWORD, "unix"]) expect(all).not.toContain(pii);
  });
});
