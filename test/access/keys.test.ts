/**
 * API keys over real HTTP (spec 2.1, 3, 5.2, 5.3, 7, 8): the 401 contract, Bearer only,
 * workspace scoping, immediate revocation, owner-only management, values never stored.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { generateApiKey, hashToken } from "../../src/core/keys.js";
import { drivers } from "../helpers/database.js";
import { grantPath, startAccessRig, type AccessRig } from "./helpers.js";

describe.each(drivers)("API keys on %s", (driver) => {
  let rig: AccessRig;
  let owner: string;
  beforeAll(async () => {
    rig = await startAccessRig(driver);
    owner = (await rig.login((await rig.user("owner")).email)).access_token;
  });
  afterAll(() => rig?.close());

  const UNAUTHORIZED = { error: "Unauthorized" };

  it.each<[string, Record<string, string>]>([
    ["missing", {}],
    ["empty bearer", { authorization: "Bearer " }],
    ["other scheme", { authorization: "Basic dXNlcjpwdw==" }],
    ["malformed key", { authorization: "Bearer pk_123" }],
    ["unknown well-formed key", { authorization: `Bearer ${generateApiKey()}` }],
    ["two tokens", { authorization: `Bearer ${"pk_" + "a".repeat(64)} extra` }],
    ["unknown prefix", { authorization: `Bearer xx_${"a".repeat(64)}` }],
    ["refresh token as credential", { authorization: `Bearer dr_${"a".repeat(64)}` }],
  ])("%s key where one is required → 401 {error: Unauthorized} exactly (5.2.2)", async (_n, headers) => {
    for (const path of [grantPath("entries:read"), "/api/test/key", "/api/test/owner"]) {
      const res = await rig.request(path, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it("reads only Authorization: Bearer — no query-parameter or cookie form (5.2.1)", async () => {
    const key = await rig.key(["entries:read"]);
    for (const q of ["access_token", "key", "api_key", "token"]) {
      const res = await rig.request(`${grantPath("entries:read")}?${q}=${key}`);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
    for (const cookie of [`token=${key}`, `access_token=${key}`, `key=${key}`, `session=${key}`]) {
      expect((await rig.request(grantPath("entries:read"), { headers: { cookie } })).status).toBe(401);
    }
    expect((await rig.request(grantPath("entries:read"), { headers: { "x-api-key": key } })).status).toBe(401);
    expect((await rig.request(grantPath("entries:read"), { headers: { authorization: `bearer   ${key}` } })).status).toBe(200);
  });

  it("a key sent to a public surface is ignored, even a bad one (5.2.3)", async () => {
    for (const token of [generateApiKey(), "garbage", await rig.key([])]) {
      const res = await rig.request("/api/test/public", { token });
      expect(res.status).toBe(200);
      expect((await res.json()).principal).toBeNull();
    }
  });

  it("a key of workspace A is unknown on workspace B (401)", async () => {
    const other = await rig.key([...ALL_GRANTS], rig.otherId);
    const res = await rig.request(grantPath("entries:read"), { token: other });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHORIZED);
    expect((await rig.request(grantPath("entries:read"), { token: other, host: "other.localhost" })).status).toBe(200);
  });

  it("owner-only routes refuse every key, even with all 16 grants (5.5)", async () => {
    const all = await rig.key([...ALL_GRANTS]);
    for (const [method, path] of [
      ["GET", "/api/dashboard/keys"],
      ["POST", "/api/dashboard/keys"],
      ["DELETE", "/api/dashboard/keys/x"],
      ["GET", "/api/dashboard/members"],
      ["POST", "/api/dashboard/members"],
      ["PATCH", "/api/dashboard/members/x"],
      ["DELETE", "/api/dashboard/members/x"],
      ["GET", "/api/test/owner"],
    ]) {
      const res = await rig.request(path, { method, token: all, json: method === "GET" || method === "DELETE" ? undefined : {} });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect((await res.json()).error).toMatch(/owner/i);
    }
  });

  it("owner creates a key (value once), lists it (never value or hash), revokes it: refused on the very next request", async () => {
    const created = await rig.request("/api/dashboard/keys", { method: "POST", token: owner, json: { name: "build", grants: ["entries:read"] } });
    expect(created.status).toBe(201);
    const key = await created.json();
    expect(Object.keys(key).sort()).toEqual(["collections", "created_at", "grants", "id", "last_used_at", "name", "published_only", "value"]);
    expect(key).toMatchObject({ collections: null, published_only: false });
    expect(key.value).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(key.grants).toEqual(["entries:read"]);

    const listed = await (await rig.request("/api/dashboard/keys", { token: owner })).json();
    const text = JSON.stringify(listed);
    expect(text).not.toContain(key.value);
    expect(text).not.toContain(hashToken(key.value));
    expect(listed.data.find((k: { id: string }) => k.id === key.id)).toEqual({
      id: key.id, name: "build", grants: ["entries:read"], collections: null, published_only: false, last_used_at: null, created_at: key.created_at,
    });

    expect((await rig.request(grantPath("entries:read"), { token: key.value })).status).toBe(200);
    const revoked = await rig.request(`/api/dashboard/keys/${key.id}`, { method: "DELETE", token: owner });
    expect(await revoked.json()).toEqual({ id: key.id, revoked: true });
    const next = await rig.request(grantPath("entries:read"), { token: key.value });
    expect(next.status).toBe(401);
    expect(await next.json()).toEqual(UNAUTHORIZED);
    // Permanent: the row is kept with revoked_at; revoking again changes nothing; it is no longer listed.
    const row = await rig.t.svc.context.sql.get<{ revoked_at: string | null }>("SELECT revoked_at FROM api_keys WHERE id = ?", [key.id]);
    expect(row?.revoked_at).toBeTruthy();
    expect((await rig.request(`/api/dashboard/keys/${key.id}`, { method: "DELETE", token: owner })).status).toBe(200);
    expect((await rig.request(grantPath("entries:read"), { token: key.value })).status).toBe(401);
    const after = await (await rig.request("/api/dashboard/keys", { token: owner })).json();
    expect(after.data.some((k: { id: string }) => k.id === key.id)).toBe(false);
    expect((await rig.request("/api/dashboard/keys/nope", { method: "DELETE", token: owner })).status).toBe(404);
  });

  it("refuses invalid key input with 400 naming the problem", async () => {
    const bad = await rig.request("/api/dashboard/keys", { method: "POST", token: owner, json: { name: "x", grants: ["entries:admin"] } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain("entries:admin");
    const noName = await rig.request("/api/dashboard/keys", { method: "POST", token: owner, json: { grants: [] } });
    expect(noName.status).toBe(400);
    expect((await noName.json()).error).toMatch(/name/);
  });

  it("a key cannot sign in to the dashboard (5.1)", async () => {
    const key = await rig.key([...ALL_GRANTS]);
    const o = await rig.user("owner");
    const asPassword = await rig.request("/api/dashboard/login", { method: "POST", json: { email: o.email, password: key } });
    expect(asPassword.status).toBe(401);
    const asBearer = await rig.request("/api/dashboard/login", { method: "POST", token: key, json: { email: o.email, password: "correct horse battery staple" } });
    expect(asBearer.status).toBe(401);
    expect(await asBearer.json()).toEqual(await asPassword.json());
    // …and never reaches a session-only route.
    expect((await rig.request("/api/test/session", { token: key })).status).toBe(403);
  });

  it("never stores a key value or token in plain text: the database file's bytes (incl. -wal) hold only hashes", async () => {
    const values = [await rig.key(["entries:read"]), await rig.key([])];
    const o = await rig.user("owner");
    const pair = await rig.login(o.email);
    values.push(pair.access_token, pair.refresh_token);
    const hex = (v: string) => v.slice(3);
    if (driver === "sqlite") {
      const dir = rig.t.db.dataDir;
      const files = readdirSync(dir).filter((f) => f.startsWith("contentsvc.db"));
      expect(files).toContain("contentsvc.db");
      const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, f))));
      for (const v of values) {
        expect(bytes.includes(Buffer.from(hex(v)))).toBe(false);
        expect(bytes.includes(Buffer.from(hashToken(v)))).toBe(true);
      }
      expect(bytes.includes(Buffer.from("correct horse battery staple"))).toBe(false);
    } else {
      const dump = JSON.stringify([
        await rig.t.svc.context.sql.all("SELECT * FROM api_keys"),
        await rig.t.svc.context.sql.all("SELECT * FROM dashboard_tokens"),
        await rig.t.svc.context.sql.all("SELECT * FROM dashboard_users"),
      ]);
      for (const v of values) {
        expect(dump).not.toContain(hex(v));
        expect(dump).toContain(hashToken(v));
      }
    }
  });
});
