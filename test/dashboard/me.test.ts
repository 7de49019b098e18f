/**
 * GET /api/dashboard/me over HTTP: what the dashboard draws its sections from — the session's
 * role and grants exactly as the access token carries them, and the grants in effect (what the
 * API lets the session do); no key, no anonymous caller.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { ACCESS_TOKEN_TTL_MS } from "../../src/core/lifetimes.js";

describe.each(drivers)("GET /api/dashboard/me on %s", (driver) => {
  let t: TestServer;
  let wsId: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true })).id;
  });
  afterAll(() => t?.close());

  it("answers a member's role and grants, the workspace, and how soon a grant change reaches them", async () => {
    const token = await dashboardToken(t.svc.context, wsId, "member", ["entries:read", "media:write"]);
    const res = await t.request("/api/dashboard/me", { token });
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me).toMatchObject({ role: "member", grants: ["entries:read", "media:write"], workspace: { slug: "demo", name: "demo", identity: true } });
    // The site hosts (where public forms answer), never the dashboard host the request came on.
    expect(me.workspace.hosts).toEqual(["demo.localhost"]);
    expect(me.email).toMatch(/@/);
    expect(Object.keys(me).sort()).toEqual(["access_token_ttl_seconds", "effective_grants", "email", "grants", "id", "role", "workspace"]);
    expect(me.access_token_ttl_seconds).toBe(ACCESS_TOKEN_TTL_MS / 1000);
  });

  // The implications of spec 5.4.2 as the server applies them: write ⇒ read; entries:* ⇒
  // collections:read; submissions:* ⇒ forms:read; nothing confers a write. Stored grants unchanged.
  it.each([
    [[], []],
    [["media:write"], ["media:read", "media:write"]],
    [["entries:read"], ["collections:read", "entries:read"]],
    [["submissions:write"], ["forms:read", "submissions:read", "submissions:write"]],
    [["entries:write", "rules:read"], ["collections:read", "entries:read", "entries:write", "rules:read"]],
  ])("a member holding %j has in effect %j", async (held, effective) => {
    const token = await dashboardToken(t.svc.context, wsId, "member", held);
    const me = await (await t.request("/api/dashboard/me", { token })).json();
    expect(me.grants).toEqual(held);
    expect(me.effective_grants).toEqual(effective);
  });

  it("answers an owner with its role, holding every grant in effect", async () => {
    const res = await t.request("/api/dashboard/me", { token: await dashboardToken(t.svc.context, wsId, "owner") });
    const me = await res.json();
    expect(me.role).toBe("owner");
    expect(me.grants).toEqual([]);
    expect(me.effective_grants).toEqual([...ALL_GRANTS]);
    expect(me.effective_grants).toHaveLength(16);
  });

  it("refuses no credential (401) and an API key (403: a dashboard session is required)", async () => {
    const anonymous = await t.request("/api/dashboard/me");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Unauthorized" });
    const key = await apiKey(t.svc.context, wsId, ["entries:read"]);
    const res = await t.request("/api/dashboard/me", { token: key });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "A dashboard session is required" });
  });
});
