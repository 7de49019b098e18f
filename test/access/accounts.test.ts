/**
 * Identity account sessions over real HTTP (spec 2.4, 3, 4.4, 5.6, 8): signup, login (30 days
 * from issue, never renewed), logout, me; deactivated users refused; no grants; Identity off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/core/keys.js";
import { drivers } from "../helpers/database.js";
import { grantPath, PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

const DAY = 24 * 3600_000;

describe.each(drivers)("account sessions on %s", (driver) => {
  let rig: AccessRig;
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  beforeAll(async () => {
    rig = await startAccessRig(driver, { now: () => clock });
  });
  afterAll(() => rig?.close());

  const signup = (email: string) => rig.request("/api/v1/accounts/signup", { method: "POST", json: { email, password: PASSWORD } });
  const login = async (email: string) => {
    const res = await rig.request("/api/v1/accounts/login", { method: "POST", json: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    return (await res.json()) as { token: string; expires_at: string };
  };

  it("sign-up and the dashboard write one end-user table: a taken email is 409 either way, each saying so", async () => {
    const key = await rig.key(["users:write", "users:read"]);
    const res = await signup("Shared@Example.com");
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({ id: expect.any(String), email: "shared@example.com", email_verified: false, attributes: {}, created_at: expect.any(String) });

    const fromDashboard = await rig.request("/api/dashboard/users", { method: "POST", token: key, json: { email: " SHARED@example.com", password: PASSWORD } });
    expect(fromDashboard.status).toBe(409);
    expect(await fromDashboard.json()).toEqual({ error: "An end user with this email already exists", field: "email" });
    const listed = await (await rig.request(`/api/dashboard/users/${created.id}`, { token: key })).json();
    expect(listed).toEqual({ ...created, active: true, updated_at: created.created_at });

    const made = await rig.request("/api/dashboard/users", { method: "POST", token: key, json: { email: "made@example.com", password: PASSWORD } });
    expect(made.status).toBe(201);
    const again = await signup("made@example.com");
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "An account with this email already exists; sign in instead" });
  });

  it("signup → login {token, expires_at} → me → logout", async () => {
    const res = await signup("Reader@Example.com");
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ email: "reader@example.com" });
    expect(JSON.stringify(created)).not.toMatch(/scrypt|password/);
    expect((await signup("reader@example.com")).status).toBe(409);

    const s = await login("reader@example.com");
    expect(Object.keys(s).sort()).toEqual(["expires_at", "token"]);
    expect(s.token).toMatch(/^as_[0-9a-f]{64}$/);
    expect(Date.parse(s.expires_at) - clock).toBe(30 * DAY);

    const me = await rig.request("/api/v1/accounts/me", { token: s.token });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ id: created.id, email: "reader@example.com", email_verified: false, attributes: {}, created_at: created.created_at });

    const stored = await rig.t.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM account_sessions WHERE token_hash = ?", [hashToken(s.token)]);
    expect(Number(stored?.n)).toBe(1);

    expect((await rig.request("/api/v1/accounts/logout", { method: "POST", token: s.token })).status).toBe(204);
    const after = await rig.request("/api/v1/accounts/me", { token: s.token });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: "Unauthorized" });
  });

  it("a session lasts 30 days from issue, is never renewed by use, and signing in again issues a new one", async () => {
    await signup("long@example.com");
    const s = await login("long@example.com");
    clock += 29 * DAY;
    expect((await rig.request("/api/v1/accounts/me", { token: s.token })).status).toBe(200);
    clock += DAY - 1;
    expect((await rig.request("/api/v1/accounts/me", { token: s.token })).status).toBe(200);
    clock += 1; // exactly 30 days after issue, despite the uses above
    expect((await rig.request("/api/v1/accounts/me", { token: s.token })).status).toBe(401);
    const again = await login("long@example.com");
    expect(again.token).not.toBe(s.token);
    expect((await rig.request("/api/v1/accounts/me", { token: again.token })).status).toBe(200);
  });

  it("a deactivated user (active = 0) is refused on the very next request and cannot sign in", async () => {
    const created = await (await signup("gone@example.com")).json();
    const s = await login("gone@example.com");
    await rig.t.svc.context.sql.run("UPDATE end_users SET active = 0 WHERE id = ?", [created.id]);
    expect((await rig.request("/api/v1/accounts/me", { token: s.token })).status).toBe(401);
    const res = await rig.request("/api/v1/accounts/login", { method: "POST", json: { email: "gone@example.com", password: PASSWORD } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid email or password" });
  });

  it("an account session carries no grants (spec 2.4) and is not a dashboard session or key", async () => {
    await signup("nogrants@example.com");
    const s = await login("nogrants@example.com");
    const res = await rig.request(grantPath("entries:read"), { token: s.token });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
    expect((await rig.request("/api/test/owner", { token: s.token })).status).toBe(403);
    expect((await rig.request("/api/test/key", { token: s.token })).status).toBe(401);
    expect((await rig.request("/api/test/account", { token: s.token })).status).toBe(200);
    // A dashboard token or a key is not an account session.
    const key = await rig.key([]);
    expect((await rig.request("/api/v1/accounts/me", { token: key })).status).toBe(403);
    expect((await rig.request("/api/v1/accounts/me")).status).toBe(401);
  });

  it("login failures are uniform; an API key cannot sign in; attempts are rate limited", async () => {
    await signup("victim@example.com");
    const key = await rig.key([]);
    const bodies = new Set<string>();
    for (const init of [
      { json: { email: "nobody@example.com", password: PASSWORD } },
      { json: { email: "victim@example.com", password: "wrong password" } },
      { json: { email: "victim@example.com", password: key } },
      { json: { email: "victim@example.com", password: PASSWORD }, token: key },
    ]) {
      const res = await rig.request("/api/v1/accounts/login", { method: "POST", ...init });
      expect(res.status).toBe(401);
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
    let last: Response | undefined;
    for (let i = 0; i < 10; i++) last = await rig.request("/api/v1/accounts/login", { method: "POST", json: { email: "victim@example.com", password: "x".repeat(9) } });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("a session of workspace A is unknown on workspace B", async () => {
    await signup("scoped@example.com");
    const s = await login("scoped@example.com");
    const res = await rig.request("/api/test/account", { token: s.token, host: "other.localhost" });
    expect([401, 404]).toContain(res.status);
  });

  it.each([
    ["POST", "/api/v1/accounts/signup"],
    ["POST", "/api/v1/accounts/login"],
    ["POST", "/api/v1/accounts/logout"],
    ["GET", "/api/v1/accounts/me"],
  ])("a workspace without Identity refuses %s %s with a clear 404", async (method, path) => {
    const res = await rig.request(path, { method, host: "other.localhost", json: method === "POST" ? { email: "a@b.co", password: PASSWORD } : undefined });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/Identity is not enabled/);
  });
});
