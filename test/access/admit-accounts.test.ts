/**
 * users:write does what spec 2.2 says, gated collections or not: a key or member holding it alone
 * creates end users and sets their password, email, verified state, attributes and activation.
 * That can make an account a gate admits, which is why docs/access.md calls users:write as
 * sensitive as reading gated entries; no extra grant is demanded. Real HTTP, every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("users:write in a workspace with a gated collection, on %s", (driver) => {
  let s: Scenario;
  const tok: Record<string, string> = {};
  const ok = (res: { status: number; body: Json }, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    tok.usersWrite = (await createTestKey(ctx, ws.id, ["users:write"])).token;
    tok.member = (await createTestSession(ctx, ws.id, { role: "member", grants: ["users:write"] })).token;
    const rule = ok(await s.as(tok.owner).post("/api/dashboard/rules", { name: "staff", condition: { account: { field: "role", eq: "staff" } } }), 201);
    ok(await s.as(tok.owner).post("/api/dashboard/collections", { name: "memos", access: "gated", rule: rule.id, fields: [{ name: "title", type: "string" }] }), 201);
    ok(await s.as(tok.owner).post("/api/dashboard/collections/memos/entries", { title: "staff memo", _status: "published" }), 201);
  });
  afterAll(() => s?.close());

  it.each(["usersWrite", "member"])("%s with users:write alone creates an end user and sets every field", async (who) => {
    const email = `${who.toLowerCase()}@example.com`;
    const created = ok(await s.as(tok[who]).post("/api/dashboard/users", { email, password: PASSWORD, attributes: { role: "guest" } }), 201);
    expect(created).toMatchObject({ email, attributes: { role: "guest" }, active: true, email_verified: false });
    const changes = [{ password: "another long passphrase" }, { email: `new-${email}` }, { email_verified: true }, { attributes: { role: "staff" } }, { active: false }, { active: true }];
    for (const change of changes) ok(await s.as(tok[who]).patch(`/api/dashboard/users/${created.id}`, change));
    expect(ok(await s.as(tok.owner).get(`/api/dashboard/users/${created.id}`))).toMatchObject({ email: `new-${email}`, email_verified: true, attributes: { role: "staff" }, active: true });
  });

  it("the account it shapes is admitted by the gate: what docs/access.md warns about", async () => {
    const user = ok(await s.as(tok.usersWrite).post("/api/dashboard/users", { email: "staff@example.com", password: PASSWORD, attributes: { role: "staff" }, email_verified: true }), 201);
    const session = ok(await s.post("/api/v1/accounts/login", { email: "staff@example.com", password: PASSWORD })).token;
    expect(ok(await s.as(session).get("/api/v1/memos")).data.map((e: Json) => e.title)).toEqual(["staff memo"]);
    // The key itself still reads nothing: users:write implies no entries grant.
    expect((await s.as(tok.usersWrite).get("/api/v1/memos")).body).toMatchObject({ grant: "entries:read" });
    expect((await s.as(tok.usersWrite).delete(`/api/dashboard/users/${user.id}`)).status).toBe(204);
  });
});
