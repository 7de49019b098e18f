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
import { scenario, type Scenario, type ServerScenario } from "../helpers/scenario.js";
import { requestAt } from "../helpers/server.js";

describe.each(drivers)("bootstrap and contentsvc/h3 guards on %s", (driver) => {
  let s: ServerScenario;
  let demo: Awaited<ReturnType<typeof bootstrapDemo>>;
  let server: Server;
  /** The embedder's own h3 app, over the same service. */
  let app: Scenario;

  beforeAll(async () => {
    s = await scenario(driver);
    demo = await bootstrapDemo(s.svc.context);
    const ctx = s.svc.context;
    const h3 = new H3();
    h3.use(tenant(ctx));
    const who = (e: { context: { principal?: { kind: string } } }) => ({ principal: e.context.principal?.kind ?? null });
    h3.get("/reports", who, { middleware: [requireGrant(ctx, "entries:read")] });
    h3.get("/forms-admin", who, { middleware: [requireGrant(ctx, "forms:write")] });
    h3.get("/admin", who, { middleware: [requireOwner(ctx)] });
    h3.get("/machine", who, { middleware: [requireKey(ctx)] });
    h3.get("/members-area", who, { middleware: [requireAccountSession(ctx)] });
    h3.get("/maybe", who, { middleware: [allowAccountSession(ctx)] });
    server = createServer(toNodeHandler(h3));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    app = await scenario({ svc: s.svc, request: (path, init) => requestAt(base, path, init) });
  });
  afterAll(async () => {
    await app?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    await s?.close();
  });

  it("creates the owner (random password) and one API key holding all 16 grants, once", async () => {
    expect(demo?.owner?.email).toBe(DEMO_OWNER_EMAIL);
    expect(demo?.owner?.password.length).toBeGreaterThanOrEqual(16);
    expect(demo?.apiKey).toMatch(/^pk_[0-9a-f]{64}$/);
    const ws = (await s.svc.context.workspaces.bySlug("demo"))!;
    const users = await s.svc.context.db.members.list(ws.id);
    expect(users.map((u) => [u.email, u.role])).toEqual([[DEMO_OWNER_EMAIL, "owner"]]);
    const keys = await s.svc.context.db.apiKeys.list(ws.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.grants).toEqual([...ALL_GRANTS].sort());
    expect(await bootstrapDemo(s.svc.context)).toBeUndefined();

    const login = (await s.post("/api/dashboard/login", { email: DEMO_OWNER_EMAIL, password: demo!.owner!.password })).expectStatus(200);
    expect(login.body.role).toBe("owner");
    (await s.as(login.body.access_token).get("/api/dashboard/keys")).expectStatus(200);
    (await s.as(demo!.apiKey).get("/api/dashboard/keys")).expectStatus(403);
  });

  it("requireGrant / requireOwner / requireKey / account guards answer as the service does", async () => {
    const key = app.as(demo!.apiKey);
    expect(await key.get("/reports")).toEqual({ status: 200, body: { principal: "key" } });
    const noGrants = app.as((await createKey(s.svc.context, (await s.svc.context.workspaces.bySlug("demo"))!.id, { name: "none" })).value);
    expect(await noGrants.get("/reports")).toEqual({ status: 403, body: { error: "Missing grant: entries:read", grant: "entries:read" } });
    expect(await app.get("/reports")).toEqual({ status: 401, body: { error: "Unauthorized" } });
    (await key.get("/reports", { host: "nope.example" })).expectStatus(404);
    (await key.get("/admin")).expectStatus(403);
    (await noGrants.get("/machine")).expectStatus(200);
    (await key.get("/members-area")).expectStatus(403);
    (await app.get("/maybe")).expectStatus(200);
    (await app.as("pk_bad").get("/maybe")).expectStatus(401);
    (await key.get("/forms-admin")).expectStatus(200);
  });
});
