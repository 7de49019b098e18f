/**
 * First run (DESIGN §4.1 serve): the demo owner and an all-grants key are created once and work;
 * and the `contentsvc/h3` guards enforce the same rules in an embedder's own h3 app.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { allowAccountSession, requireAccountSession, requireGrant, requireKey, requireOwner, tenant } from "../../src/h3.js";
import { bootstrapDemo, DEMO_OWNER_EMAIL } from "../../src/services/bootstrap.js";
import { createKey } from "../../src/services/keys.js";
import { drivers } from "../helpers/database.js";
import { fetchWithHost, startTestServer, type TestServer } from "../helpers/server.js";

describe.each(drivers)("bootstrap and contentsvc/h3 guards on %s", (driver) => {
  let t: TestServer;
  let demo: Awaited<ReturnType<typeof bootstrapDemo>>;
  let server: Server;
  let base: string;
  const get = (path: string, token?: string, host = "demo.localhost") =>
    fetchWithHost(`${base}${path}`, { headers: new Headers({ host, ...(token && { authorization: `Bearer ${token}` }) }) });

  beforeAll(async () => {
    t = await startTestServer(driver);
    demo = await bootstrapDemo(t.svc.context);
    const ctx = t.svc.context;
    const app = new H3();
    app.use(tenant(ctx));
    const who = (e: { context: { principal?: { kind: string } } }) => ({ principal: e.context.principal?.kind ?? null });
    app.get("/reports", who, { middleware: [requireGrant(ctx, "entries:read")] });
    app.get("/forms-admin", who, { middleware: [requireGrant(ctx, "forms:write")] });
    app.get("/admin", who, { middleware: [requireOwner(ctx)] });
    app.get("/machine", who, { middleware: [requireKey(ctx)] });
    app.get("/members-area", who, { middleware: [requireAccountSession(ctx)] });
    app.get("/maybe", who, { middleware: [allowAccountSession(ctx)] });
    server = createServer(toNodeHandler(app));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    await t?.close();
  });

  it("creates the owner (random password) and one API key holding all 16 grants, once", async () => {
    expect(demo?.owner?.email).toBe(DEMO_OWNER_EMAIL);
    expect(demo?.owner?.password.length).toBeGreaterThanOrEqual(16);
    expect(demo?.apiKey).toMatch(/^pk_[0-9a-f]{64}$/);
    const ws = (await t.svc.context.workspaces.bySlug("demo"))!;
    const users = await t.svc.context.db.members.list(ws.id);
    expect(users.map((u) => [u.email, u.role])).toEqual([[DEMO_OWNER_EMAIL, "owner"]]);
    const keys = await t.svc.context.db.apiKeys.list(ws.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.grants).toEqual([...ALL_GRANTS].sort());
    expect(await bootstrapDemo(t.svc.context)).toBeUndefined();

    const login = await t.request("/api/dashboard/login", { method: "POST", json: { email: DEMO_OWNER_EMAIL, password: demo!.owner!.password } });
    expect(login.status).toBe(200);
    const { access_token, role } = await login.json();
    expect(role).toBe("owner");
    expect((await t.request("/api/dashboard/keys", { token: access_token })).status).toBe(200);
    expect((await t.request("/api/dashboard/keys", { token: demo!.apiKey })).status).toBe(403);
  });

  it("requireGrant / requireOwner / requireKey / account guards answer as the service does", async () => {
    const ok = await get("/reports", demo!.apiKey);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ principal: "key" });
    const noGrants = (await createKey(t.svc.context, (await t.svc.context.workspaces.bySlug("demo"))!.id, { name: "none" })).value;
    const denied = await get("/reports", noGrants);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: "Missing grant: entries:read", grant: "entries:read" });
    const none = await get("/reports");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: "Unauthorized" });
    expect((await get("/reports", demo!.apiKey, "nope.example")).status).toBe(404);
    expect((await get("/admin", demo!.apiKey)).status).toBe(403);
    expect((await get("/machine", noGrants)).status).toBe(200);
    expect((await get("/members-area", demo!.apiKey)).status).toBe(403);
    expect((await get("/maybe")).status).toBe(200);
    expect((await get("/maybe", "pk_bad")).status).toBe(401);
    expect((await get("/forms-admin", demo!.apiKey)).status).toBe(200);
  });
});
