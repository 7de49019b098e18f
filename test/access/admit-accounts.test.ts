/**
 * users:write alone cannot make an account that reads gated entries (spec 5.4.3): whoever sets an
 * end user's password can sign in as it, and a rule reads its email, verified state and
 * attributes. While a collection is gated, such changes also need entries:read; owners bypass.
 * Deactivating and deleting admit nobody and need nothing more. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("end users that a gate would admit, on %s", (driver) => {
  let t: TestServer;
  const tok: Record<string, string> = {};
  const req = async (path: string, token?: string, method = "GET", json?: unknown) => {
    const res = await t.request(path, { method, token, json });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const refused = (res: { status: number; body: Json }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
  };
  const user = (email: string) => ({ email, password: PASSWORD, attributes: { role: "staff" }, email_verified: true });

  beforeAll(async () => {
    t = await startTestServer(driver);
    const ctx = t.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.usersWrite = (await createTestKey(ctx, ws.id, ["users:write"])).token;
    tok.usersWriteEntriesRead = (await createTestKey(ctx, ws.id, ["users:write", "entries:read"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["users:write"] })).token;
  });
  afterAll(() => t?.close());

  it("without a gated collection, users:write alone creates and changes end users", async () => {
    const created = await req("/api/dashboard/users", tok.usersWrite, "POST", user("early@example.com"));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await req(`/api/dashboard/users/${created.body.id}`, tok.usersWrite, "PATCH", { attributes: { role: "guest" } })).status).toBe(200);
  });

  it("once a collection is gated, users:write alone cannot create an account and read through the gate", async () => {
    const rule = (await req("/api/dashboard/rules", tok.owner, "POST", { name: "staff", condition: { account: { field: "role", eq: "staff" } } })).body;
    expect((await req("/api/dashboard/collections", tok.owner, "POST", { name: "memos", access: "gated", rule: rule.id, fields: [{ name: "title", type: "string" }] })).status).toBe(201);
    await req("/api/dashboard/collections/memos/entries", tok.owner, "POST", { title: "staff memo", _status: "published" });

    refused(await req("/api/dashboard/users", tok.usersWrite, "POST", user("mallory@example.com")));
    refused(await req("/api/dashboard/users", tok.member, "POST", user("mallory@example.com")));
    const login = await req("/api/v1/accounts/login", undefined, "POST", { email: "mallory@example.com", password: PASSWORD });
    expect(login.status).toBe(401);
  });

  it("nor give an existing account a password, an email, a verified state, attributes or activation", async () => {
    const id = (await req("/api/dashboard/users", tok.owner, "POST", { email: "guest@example.com", password: PASSWORD, attributes: { role: "guest" } })).body.id;
    for (const change of [{ password: "another long passphrase" }, { email: "ceo@example.com" }, { email_verified: true }, { attributes: { role: "staff" } }, { active: true }]) {
      refused(await req(`/api/dashboard/users/${id}`, tok.usersWrite, "PATCH", change));
    }
    expect((await req(`/api/dashboard/users/${id}`, tok.owner)).body).toMatchObject({ email: "guest@example.com", attributes: { role: "guest" } });
  });

  it("deactivating and deleting need nothing more; with entries:read (or as owner) every change works", async () => {
    const id = (await req("/api/dashboard/users", tok.usersWriteEntriesRead, "POST", user("staff@example.com"))).body.id;
    expect(id).toBeTypeOf("string");
    expect((await req(`/api/dashboard/users/${id}`, tok.usersWrite, "PATCH", { active: false })).status).toBe(200);
    expect((await req(`/api/dashboard/users/${id}`, tok.usersWriteEntriesRead, "PATCH", { active: true, attributes: { role: "staff" } })).status).toBe(200);
    const session = (await req("/api/v1/accounts/login", undefined, "POST", { email: "staff@example.com", password: PASSWORD })).body.token;
    expect((await req("/api/v1/memos", session)).status).toBe(200);
    expect((await req(`/api/dashboard/users/${id}`, tok.usersWrite, "DELETE")).status).toBe(204);
  });
});
