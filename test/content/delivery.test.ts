/**
 * The delivery API (spec 4.1, 5.2, 5.3, 1.3): public / private / gated access with exact 401/403
 * bodies, drafts never delivered, no CORS headers ever, unknown collections. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { createTestAccount, createTestKey, createTestSession } from "../helpers/credentials.js";

const UNAUTHORIZED = { error: "Unauthorized" };
const MISSING_READ = { error: "Missing grant: entries:read", grant: "entries:read" };

describe.each(drivers)("delivery API on %s", (driver) => {
  let t: TestServer;
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const write = async (path: string, json: unknown, method = "POST") => {
    const res = await t.request(path, { method, json, token: tok.owner });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startTestServer(driver);
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
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
      expect(body.meta).toEqual({ total: 1, limit: 20, offset: 0 });
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
      expect(await res.json()).toEqual({ data: [], meta: { total: 0, limit: 100, offset: 0 } });
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
    ["secrets", "memberNone", 403, MISSING_READ],
    ["secrets", "account", 403, MISSING_READ],
    ["secrets", "keyRead", 200, undefined],
    ["secrets", "keyWrite", 200, undefined],
    ["secrets", "memberRead", 200, undefined],
    ["secrets", "owner", 200, undefined],
    ["vip", undefined, 401, UNAUTHORIZED],
    ["vip", "unknownKey", 401, UNAUTHORIZED],
    ["vip", "keyNone", 403, MISSING_READ],
    ["vip", "keyRead", 200, undefined],
    ["vip", "memberRead", 200, undefined],
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
