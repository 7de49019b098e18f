/**
 * The delivery API (spec 4.1, 5.2, 5.3, 1.3): public / private / gated access with exact 401/403
 * bodies, dashboard sessions refused, drafts never delivered, no CORS headers ever, unknown
 * collections. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { createTestAccount, createTestKey, createTestSession } from "../helpers/credentials.js";
import { createMember } from "../../src/services/members.js";

const UNAUTHORIZED = { error: "Unauthorized" };
const MISSING_READ = { error: "Missing grant: entries:read", grant: "entries:read" };

describe.each(drivers)("delivery API on %s", (driver) => {
  let t: TestServer;
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let wsId: string;

  const write = async (path: string, json: unknown, method = "POST") => {
    const res = await t.request(path, { method, json, token: tok.owner });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startTestServer(driver);
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    wsId = ws.id;
    const ctx = t.svc.context;
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.memberRead = (await createTestSession(ctx, ws.id, { role: "member", grants: ["entries:read"] })).token;
    tok.memberNone = (await createTestSession(ctx, ws.id, { role: "member", grants: [] })).token;
    tok.keyRead = (await createTestKey(ctx, ws.id, ["entries:read"])).token;
    tok.keyWrite = (await createTestKey(ctx, ws.id, ["entries:write"])).token;
    tok.keyNone = (await createTestKey(ctx, ws.id, [])).token;
    tok.keyCollections = (await createTestKey(ctx, ws.id, ["collections:write"])).token;
    tok.account = (await createTestAccount(ctx, ws.id)).token;
    tok.unknownKey = "pk_" + "0".repeat(64);
    tok.malformed = "not-a-token";
    const fields = [{ name: "title", type: "string", required: true }];
    for (const [name, access] of [["posts", "public"], ["secrets", "private"], ["vip", "gated"]] as const) {
      await write("/api/dashboard/collections", { name, access, fields });
      ids[`${name}:published`] = (await write(`/api/dashboard/collections/${name}/entries`, { title: "live", _status: "published" })).id as string;
      ids[`${name}:draft`] = (await write(`/api/dashboard/collections/${name}/entries`, { title: "draft" })).id as string;
      const was = (await write(`/api/dashboard/collections/${name}/entries`, { title: "was live", _status: "published" })).id as string;
      await write(`/api/dashboard/collections/${name}/entries/${was}`, { _status: "draft" }, "PATCH");
      ids[`${name}:unpublished`] = was;
    }
  });
  afterAll(() => t?.close());

  describe("drafts are never delivered", () => {
    it.each(["posts", "secrets", "vip"])("lists only published entries of %s", async (name) => {
      const res = await t.request(`/api/v1/${name}`, { token: tok.keyRead });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.data.map((e: { id: string }) => e.id)).toEqual([ids[`${name}:published`]]);
      expect(body.meta).toEqual({ total: 1, limit: 20, offset: 0, next: null });
      expect(body.data[0]._status).toBe("published");
    });

    it.each(["draft", "unpublished"])("answers 404 for a single %s entry, and 200 once published", async (kind) => {
      for (const name of ["posts", "secrets", "vip"]) {
        const res = await t.request(`/api/v1/${name}/${ids[`${name}:${kind}`]}`, { token: tok.keyRead });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: "Entry not found" });
      }
      const ok = await t.request(`/api/v1/posts/${ids["posts:published"]}`);
      expect(ok.status).toBe(200);
      expect((await ok.json()).data).toMatchObject({ id: ids["posts:published"], title: "live", _status: "published" });
    });

    it("does not reveal drafts through filters, sort or offset either", async () => {
      const res = await t.request(`/api/v1/posts?filter[title]=draft&sort=-_updated_at&offset=0&limit=100`);
      expect(await res.json()).toEqual({ data: [], meta: { total: 0, limit: 100, offset: 0, next: null } });
    });
  });

  // [collection, credential, status, exact body (undefined: a 200 list)]
  const table: [string, string | undefined, number, unknown][] = [
    ["posts", undefined, 200, undefined],
    ["posts", "keyNone", 200, undefined],
    ["posts", "keyRead", 200, undefined],
    ["posts", "unknownKey", 200, undefined],
    ["posts", "malformed", 200, undefined],
    ["posts", "account", 200, undefined],
    ["secrets", undefined, 401, UNAUTHORIZED],
    ["secrets", "unknownKey", 401, UNAUTHORIZED],
    ["secrets", "malformed", 401, UNAUTHORIZED],
    ["secrets", "keyNone", 403, MISSING_READ],
    ["secrets", "keyCollections", 403, MISSING_READ],
    ["secrets", "keyRead", 200, undefined],
    ["secrets", "keyWrite", 200, undefined],
    // spec 4.1, 5.1: a private collection needs a bearer API key; no other credential is one.
    ["secrets", "memberNone", 401, UNAUTHORIZED],
    ["secrets", "memberRead", 401, UNAUTHORIZED],
    ["secrets", "owner", 401, UNAUTHORIZED],
    ["secrets", "account", 401, UNAUTHORIZED],
    ["vip", undefined, 401, UNAUTHORIZED],
    ["vip", "unknownKey", 401, UNAUTHORIZED],
    ["vip", "keyNone", 403, MISSING_READ],
    ["vip", "keyRead", 200, undefined],
    ["vip", "memberRead", 401, UNAUTHORIZED],
    ["vip", "owner", 401, UNAUTHORIZED],
    ["vip", "account", 403, { error: "Collection vip is gated: this account does not satisfy its rule", collection: "vip" }],
  ];

  it.each(table)("GET /api/v1/%s with %s → %i", async (name, cred, status, body) => {
    const token = cred === undefined ? undefined : tok[cred];
    for (const path of [`/api/v1/${name}`, `/api/v1/${name}/${ids[`${name}:published`]}`]) {
      const res = await t.request(path, { token });
      expect(res.status, path).toBe(status);
      const json = await res.json();
      if (body !== undefined) expect(json).toEqual(body);
      else expect(json.data).toBeDefined();
    }
  });

  describe("a dashboard session is not a delivery-API credential (spec 4.1, 5.1)", () => {
    const PASSWORD = "correct horse battery staple";
    const sessions: Record<string, string> = {};
    beforeAll(async () => {
      for (const [role, grants] of [["owner", []], ["member", ["entries:read", "entries:write"]]] as const) {
        const email = `${role}-signin@example.com`;
        await createMember(t.svc.context, wsId, { email, password: PASSWORD, role, grants: [...grants] });
        const res = await t.request("/api/dashboard/login", { method: "POST", json: { email, password: PASSWORD } });
        expect(res.status).toBe(200);
        const body = await res.json();
        sessions[`${role} ds_ access token`] = body.access_token;
        sessions[`${role} dr_ refresh token`] = body.refresh_token;
      }
      // An unknown ds_ token gets the very same answer: the route does not even look sessions up.
      sessions["unknown ds_ token"] = "ds_" + "0".repeat(64);
    });

    it.each(["secrets", "vip"])("refuses owner and member sessions on %s: list and by id, uncached and cached", async (name) => {
      // A fresh published entry moves the workspace's content version, so nothing below is cached yet.
      const id = (await write(`/api/dashboard/collections/${name}/entries`, { title: "fresh", _status: "published" })).id as string;
      for (const path of [`/api/v1/${name}?limit=3`, `/api/v1/${name}/${id}`]) {
        const refusals = async () => {
          for (const [label, token] of Object.entries(sessions)) {
            const res = await t.request(path, { token });
            expect([label, path, res.status, await res.json()]).toEqual([label, path, 401, UNAUTHORIZED]);
          }
        };
        await refusals(); // uncached: the refusal comes before any entry is read
        expect((await t.request(path, { token: tok.keyRead })).status).toBe(200); // the key's read fills the cache
        await refusals(); // cached: the access check still runs on a hit
      }
      // The same sessions read these entries through the dashboard's own routes.
      for (const role of ["owner", "member"]) {
        const res = await t.request(`/api/dashboard/collections/${name}/entries/${id}`, { token: sessions[`${role} ds_ access token`] });
        expect([role, res.status]).toEqual([role, 200]);
      }
    });
  });

  it("ignores a non-bearer Authorization header on a public collection", async () => {
    const res = await t.request("/api/v1/posts", { headers: { authorization: "Basic dXNlcjpwdw==" } });
    expect(res.status).toBe(200);
  });

  it.each(["/api/v1/nope", "/api/v1/nope/x", "/api/v1/accounts", "/api/v1/NOT_A_NAME", "/api/v1/posts%27--"])("answers 404 for %s", async (path) => {
    const res = await t.request(path, { token: tok.keyRead });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/Unknown collection|No such endpoint/);
  });

  describe("no CORS headers, ever (spec 1.3)", () => {
    const noCors = (res: Response) => headerNames(res).filter((k) => k.startsWith("access-control-"));
    it.each([
      ["GET", "/api/v1/posts", undefined],
      ["GET", `/api/v1/posts/${"x"}`, undefined],
      ["GET", "/api/v1/secrets", undefined],
      ["GET", "/api/v1/secrets", "keyRead"],
      ["OPTIONS", "/api/v1/posts", undefined],
      ["OPTIONS", "/api/v1/secrets/abc", undefined],
    ])("%s %s (%s)", async (method, path, cred) => {
      const res = await t.request(path, {
        method,
        token: cred ? tok[cred] : undefined,
        headers: { origin: "https://site.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
      expect(noCors(res)).toEqual([]);
      if (method === "OPTIONS") expect(res.status).toBeGreaterThanOrEqual(400);
    });
  });
});

function headerNames(res: Response): string[] {
  const names: string[] = [];
  res.headers.forEach((_v, k) => names.push(k));
  return names;
}
