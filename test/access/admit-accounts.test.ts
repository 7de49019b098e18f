/**
 * users:write does what spec 2.2 says, gated collections or not: a key or member holding it alone
 * creates end users and sets their password, email, verified state, attributes and activation.
 * That can make an account a gate admits, which is why docs/access.md calls users:write as
 * sensitive as reading gated entries; no extra grant is demanded. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("users:write in a workspace with a gated collection, on %s", (driver) => {
  let t: TestServer;
  const tok: Record<string, string> = {};
  const req = async (path: string, token?: string, method = "GET", json?: unknown) => {
    const res = await t.request(path, { method, token, json });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  const ok = (res: { status: number; body: Json }, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestServer(driver);
    const ctx = t.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.usersWrite = (await createTestKey(ctx, ws.id, ["users:write"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["users:write"] })).token;
    const rule = ok(await req("/api/dashboard/rules", tok.owner, "POST", { name: "staff", condition: { account: { field: "role", eq: "staff" } } }), 201);
    ok(await req("/api/dashboard/collections", tok.owner, "POST", { name: "memos", access: "gated", rule: rule.id, fields: [{ name: "title", type: "string" }] }), 201);
    ok(await req("/api/dashboard/collections/memos/entries", tok.owner, "POST", { title: "staff memo", _status: "published" }), 201);
  });
  afterAll(() => t?.close());

  it.each(["usersWrite", "member"])("%s with users:write alone creates an end user and sets every field", async (who) => {
    const email = `${who.toLowerCase()}@example.com`;
    const created = ok(await req("/api/dashboard/users", tok[who], "POST", { email, password: PASSWORD, attributes: { role: "guest" } }), 201);
    expect(created).toMatchObject({ email, attributes: { role: "guest" }, active: true, email_verified: false });
    const changes = [{ password: "another long passphrase" }, { email: `new-${email}` }, { email_verified: true }, { attributes: { role: "staff" } }, { active: false }, { active: true }];
    for (const change of changes) ok(await req(`/api/dashboard/users/${created.id}`, tok[who], "PATCH", change));
    expect(ok(await req(`/api/dashboard/users/${created.id}`, tok.owner))).toMatchObject({ email: `new-${email}`, email_verified: true, attributes: { role: "staff" }, active: true });
  });

  it("the account it shapes is admitted by the gate: what docs/access.md warns about", async () => {
    const user = ok(await req("/api/dashboard/users", tok.usersWrite, "POST", { email: "staff@example.com", password: PASSWORD, attributes: { role: "staff" }, email_verified: true }), 201);
    const session = ok(await req("/api/v1/accounts/login", undefined, "POST", { email: "staff@example.com", password: PASSWORD })).token;
    expect(ok(await req("/api/v1/memos", session)).data.map((e: Json) => e.title)).toEqual(["staff memo"]);
    // The key itself still reads nothing: users:write implies no entries grant.
    expect((await req("/api/v1/memos", tok.usersWrite)).body).toMatchObject({ grant: "entries:read" });
    expect((await req(`/api/dashboard/users/${user.id}`, tok.usersWrite, "DELETE")).status).toBe(204);
  });
});
