/**
 * Dashboard members and sessions over real HTTP (spec 2.3, 3, 5.1, 5.5; DESIGN §4.2): login,
 * refresh re-reads grants, rotation, expiry, owner-only routes, last owner, uniform login
 * failures. Sign-in throttling has its own suite (sign-in-throttle.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { drivers } from "../helpers/database.js";
import { grantPath, PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

describe.each(drivers)("dashboard sessions on %s", (driver) => {
  let rig: AccessRig;
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  let owner: { access_token: string; refresh_token: string };
  beforeAll(async () => {
    rig = await startAccessRig(driver, { now: () => clock });
    owner = await rig.login((await rig.user("owner", [], "boss@example.com")).email);
  });
  afterAll(() => rig?.close());

  it("login answers {access_token, refresh_token, expires_in, role} with ds_/dr_ tokens of ≤ 1 hour", async () => {
    const res = await rig.request("/api/dashboard/login", { method: "POST", json: { email: " BOSS@example.com ", password: PASSWORD } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "role"]);
    expect(body.access_token).toMatch(/^ds_[0-9a-f]{64}$/);
    expect(body.refresh_token).toMatch(/^dr_[0-9a-f]{64}$/);
    expect(body.expires_in).toBe(300);
    expect(body.role).toBe("owner");
  });

  it("a member's grant change is visible only after /refresh; the old access token keeps the old grants", async () => {
    const m = await rig.user("member", ["entries:read"]);
    const first = await rig.login(m.email);
    expect((await rig.request(grantPath("entries:read"), { token: first.access_token })).status).toBe(200);
    expect((await rig.request(grantPath("media:read"), { token: first.access_token })).status).toBe(403);

    const patched = await rig.request(`/api/dashboard/members/${m.id}`, { method: "PATCH", token: owner.access_token, json: { grants: ["media:read"] } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: m.id, role: "member", grants: ["media:read"] });

    // Not yet: the token carries what was read at issue (spec 3).
    expect((await rig.request(grantPath("entries:read"), { token: first.access_token })).status).toBe(200);
    expect((await rig.request(grantPath("media:read"), { token: first.access_token })).status).toBe(403);

    const refreshed = await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: first.refresh_token } });
    expect(refreshed.status).toBe(200);
    const second = await refreshed.json();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await rig.request(grantPath("media:read"), { token: second.access_token })).status).toBe(200);
    expect((await rig.request(grantPath("entries:read"), { token: second.access_token })).status).toBe(403);
    // The old access token still holds the old grants until it expires; the used refresh token is spent.
    expect((await rig.request(grantPath("entries:read"), { token: first.access_token })).status).toBe(200);
    const reused = await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: first.refresh_token } });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({ error: "Unauthorized", reason: "reused" });
  });

  it("a role change (promotion) also arrives at refresh, without sign-out", async () => {
    const m = await rig.user("member", []);
    const s = await rig.login(m.email);
    await rig.request(`/api/dashboard/members/${m.id}`, { method: "PATCH", token: owner.access_token, json: { role: "owner" } });
    expect((await rig.request("/api/test/owner", { token: s.access_token })).status).toBe(403);
    const r = await (await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: s.refresh_token } })).json();
    expect(r.role).toBe("owner");
    expect((await rig.request("/api/test/owner", { token: r.access_token })).status).toBe(200);
  });

  it("owner-only routes refuse a member holding all 16 grants (403), and accept an owner", async () => {
    const m = await rig.user("member", [...ALL_GRANTS]);
    const { access_token } = await rig.login(m.email);
    for (const [method, path] of [
      ["GET", "/api/dashboard/keys"],
      ["POST", "/api/dashboard/keys"],
      ["DELETE", "/api/dashboard/keys/x"],
      ["GET", "/api/dashboard/members"],
      ["POST", "/api/dashboard/members"],
      ["PATCH", `/api/dashboard/members/${m.id}`],
      ["DELETE", `/api/dashboard/members/${m.id}`],
    ]) {
      const res = await rig.request(path, { method, token: access_token, json: method === "GET" || method === "DELETE" ? undefined : { grants: [] } });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await rig.request("/api/dashboard/members", { token: owner.access_token })).status).toBe(200);
  });

  it("members CRUD: create (201, no hash), list, validation, duplicate email 409", async () => {
    const res = await rig.request("/api/dashboard/members", {
      method: "POST", token: owner.access_token, json: { email: "Ed@Example.com", password: PASSWORD, role: "member", grants: ["sites:write"] },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ email: "ed@example.com", role: "member", grants: ["sites:write"] });
    expect(JSON.stringify(created)).not.toMatch(/scrypt|password/);
    const list = await (await rig.request("/api/dashboard/members", { token: owner.access_token })).json();
    expect(list.data.map((u: { email: string }) => u.email)).toContain("ed@example.com");
    expect(JSON.stringify(list)).not.toMatch(/scrypt|password_hash/);
    const dup = await rig.request("/api/dashboard/members", { method: "POST", token: owner.access_token, json: { email: "ed@example.com", password: PASSWORD } });
    expect(dup.status).toBe(409);
    for (const bad of [{ email: "x", password: PASSWORD }, { email: "a@b.co", password: "short" }, { email: "a@b.co", password: PASSWORD, role: "admin" }, { email: "a@b.co", password: PASSWORD, grants: ["users:admin"] }]) {
      expect((await rig.request("/api/dashboard/members", { method: "POST", token: owner.access_token, json: bad })).status).toBe(400);
    }
  });

  it("cannot remove or demote the last owner (409); can once another owner exists; removal ends sessions at once", async () => {
    const owners = (await (await rig.request("/api/dashboard/members", { token: owner.access_token })).json()).data.filter(
      (u: { role: string }) => u.role === "owner",
    ) as { id: string; email: string }[];
    // Remove every owner but the signed-in one so exactly one remains.
    const keep = owners.find((u) => u.email === "boss@example.com")!;
    const rest = owners.filter((u) => u !== keep);
    for (const o of rest) expect((await rig.request(`/api/dashboard/members/${o.id}`, { method: "DELETE", token: owner.access_token })).status).toBe(200);
    const demote = await rig.request(`/api/dashboard/members/${keep.id}`, { method: "PATCH", token: owner.access_token, json: { role: "member" } });
    expect(demote.status).toBe(409);
    expect((await demote.json()).error).toMatch(/last owner/);
    const remove = await rig.request(`/api/dashboard/members/${keep.id}`, { method: "DELETE", token: owner.access_token });
    expect(remove.status).toBe(409);

    const m = await rig.user("member", ["entries:read"]);
    const s = await rig.login(m.email);
    const del = await rig.request(`/api/dashboard/members/${m.id}`, { method: "DELETE", token: owner.access_token });
    expect(await del.json()).toEqual({ id: m.id, deleted: true });
    expect((await rig.request(grantPath("entries:read"), { token: s.access_token })).status).toBe(401);
    expect((await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: s.refresh_token } })).status).toBe(401);
  });

  it("logout ends the access and refresh tokens", async () => {
    const m = await rig.user("member", ["entries:read"]);
    const s = await rig.login(m.email);
    const out = await rig.request("/api/dashboard/logout", { method: "POST", token: s.access_token, json: { refresh_token: s.refresh_token } });
    expect(out.status).toBe(204);
    expect((await rig.request(grantPath("entries:read"), { token: s.access_token })).status).toBe(401);
    expect((await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: s.refresh_token } })).status).toBe(401);
  });

  it("an access token expires after five minutes, well within the one-hour bound; the refresh token still works until 30 days", async () => {
    const m = await rig.user("member", ["entries:read"]);
    const s = await rig.login(m.email);
    clock += 5 * 60_000 - 1;
    expect((await rig.request(grantPath("entries:read"), { token: s.access_token })).status).toBe(200);
    clock += 1;
    expect((await rig.request(grantPath("entries:read"), { token: s.access_token })).status).toBe(401);
    const r = await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: s.refresh_token } });
    expect(r.status).toBe(200);
    const s2 = await r.json();
    clock += 30 * 24 * 3600_000;
    expect((await rig.request("/api/dashboard/refresh", { method: "POST", json: { refresh_token: s2.refresh_token } })).status).toBe(401);
    owner = await rig.login("boss@example.com");
  });

  it("a dashboard token of workspace A is unknown on workspace B; a refresh token is not a credential", async () => {
    const m = await rig.user("member", [...ALL_GRANTS]);
    const s = await rig.login(m.email);
    expect((await rig.request(grantPath("entries:read"), { token: s.access_token, host: "other.localhost" })).status).toBe(401);
    expect((await rig.request(grantPath("entries:read"), { token: s.refresh_token })).status).toBe(401);
    expect((await rig.request("/api/dashboard/refresh", { method: "POST", host: "other.localhost", json: { refresh_token: s.refresh_token } })).status).toBe(401);
  });

  it("login failures are uniform: unknown email, wrong password, key as password, malformed email", async () => {
    const m = await rig.user("member", []);
    const key = await rig.key([...ALL_GRANTS]);
    const bodies = [];
    for (const json of [
      { email: "nobody@example.com", password: PASSWORD },
      { email: m.email, password: "wrong password!" },
      { email: m.email, password: key },
      { email: "not-an-email", password: PASSWORD },
    ]) {
      const res = await rig.request("/api/dashboard/login", { method: "POST", json });
      expect(res.status).toBe(401);
      bodies.push(await res.text());
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual({ error: "Invalid email or password" });
    expect((await rig.request("/api/dashboard/login", { method: "POST", json: { email: m.email } })).status).toBe(400);
  });
});
