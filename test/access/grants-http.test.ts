/**
 * spec 5.4 over real HTTP: every grant route against keys and members holding every single grant
 * (and none), checked against an independent oracle; the exact 403 body; owners bypass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_GRANTS, type Grant } from "../../src/core/grants.js";
import { drivers } from "../helpers/database.js";
import { grantPath, oracleAllows, startAccessRig, type AccessRig } from "./helpers.js";

describe.each(drivers)("grant rules over HTTP on %s (spec 5.4)", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    rig = await startAccessRig(driver);
  });
  afterAll(() => rig?.close());

  it("a key with no grants authenticates (not 401) and can do nothing: 403 naming the grant (5.4.1)", async () => {
    const key = await rig.key([]);
    for (const g of ALL_GRANTS) {
      const res = await rig.request(grantPath(g), { token: key });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: `Missing grant: ${g}`, grant: g });
    }
    expect((await rig.request("/api/test/key", { token: key })).status).toBe(200);
  });

  it("every single held grant against every required grant matches spec 5.4.2 exactly (keys)", async () => {
    for (const held of ALL_GRANTS) {
      const key = await rig.key([held]);
      for (const required of ALL_GRANTS) {
        const res = await rig.request(grantPath(required), { token: key });
        const allowed = oracleAllows([held], required);
        expect([held, required, res.status]).toEqual([held, required, allowed ? 200 : 403]);
        if (!allowed) expect(await res.json()).toEqual({ error: `Missing grant: ${required}`, grant: required });
        else await res.body?.cancel();
      }
    }
  });

  it.each<[string, Grant[], Grant, boolean]>([
    ["write implies read", ["media:write"], "media:read", true],
    ["read does not imply write", ["media:read"], "media:write", false],
    ["entries:read implies collections:read", ["entries:read"], "collections:read", true],
    ["entries:write implies collections:read", ["entries:write"], "collections:read", true],
    ["entries:write never implies collections:write (5.4.3)", ["entries:write"], "collections:write", false],
    ["collections access implies nothing about entries (5.4.3)", ["collections:write"], "entries:read", false],
    ["submissions:read implies forms:read", ["submissions:read"], "forms:read", true],
    ["submissions:write implies forms:read", ["submissions:write"], "forms:read", true],
    ["submissions:write never implies forms:write", ["submissions:write"], "forms:write", false],
    ["forms:read does not give submissions:read (5.4.4)", ["forms:read"], "submissions:read", false],
    ["forms:write does not give submissions:read (5.4.4)", ["forms:write"], "submissions:read", false],
    ["users:write implies users:read only", ["users:write"], "rules:read", false],
  ])("%s", async (_name, held, required, allowed) => {
    const key = await rig.key(held);
    const res = await rig.request(grantPath(required), { token: key });
    expect(res.status).toBe(allowed ? 200 : 403);
  });

  it("members are checked exactly like keys (spec 2.3), through their access token", async () => {
    for (const held of ["entries:write", "submissions:read", "forms:read", "sites:write"] as Grant[]) {
      const m = await rig.user("member", [held]);
      const { access_token } = await rig.login(m.email);
      for (const required of ALL_GRANTS) {
        const res = await rig.request(grantPath(required), { token: access_token });
        expect([held, required, res.status]).toEqual([held, required, oracleAllows([held], required) ? 200 : 403]);
        await res.body?.cancel();
      }
    }
  });

  it("a member with no grants signs in and is refused every grant (spec 5.5)", async () => {
    const m = await rig.user("member", []);
    const { access_token, role } = await rig.login(m.email);
    expect(role).toBe("member");
    expect((await rig.request("/api/test/session", { token: access_token })).status).toBe(200);
    const res = await rig.request(grantPath("entries:read"), { token: access_token });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
  });

  it("an owner bypasses the grant set (spec 5.5)", async () => {
    const o = await rig.user("owner", []);
    const { access_token } = await rig.login(o.email);
    for (const g of ALL_GRANTS) expect((await rig.request(grantPath(g), { token: access_token })).status).toBe(200);
  });

  it("stored grants are never rewritten by the implications (5.4.2)", async () => {
    await rig.key(["entries:write"]);
    const rows = await rig.t.svc.context.sql.all<{ grants: string }>("SELECT grants FROM api_keys WHERE grants LIKE ?", ['%entries:write%']);
    expect(rows.map((r) => JSON.parse(r.grants))).toContainEqual(["entries:write"]);
  });
});
