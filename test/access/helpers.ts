/**
 * Access-control test rig: a real service over real HTTP whose app also mounts test-only routes,
 * one per grant and one per access kind, so every rule of spec 5.4/5.5 is reachable before the
 * feature surfaces exist.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "h3/node";
import { ALL_GRANTS, type Grant } from "../../src/core/grants.js";
import { createHttpApp } from "../../src/http/app.js";
import { access, type Access } from "../../src/http/access.js";
import { defineRoutes, type RouteDef } from "../../src/http/route.js";
import { allRoutes } from "../../src/http/routes/index.js";
import type { ServiceOptions } from "../../src/service.js";
import { createMember } from "../../src/services/members.js";
import type { DriverName } from "../helpers/database.js";
import { requestAt, dropMail, startTestServer, type RequestInit2, type TestServer } from "../helpers/server.js";

export const PASSWORD = "correct horse battery staple";
export const grantPath = (g: Grant) => `/api/test/grant/${g.replace(":", "/")}`;

const echo = (path: string, rule: Access, summary: string): RouteDef => ({
  method: "GET",
  path,
  access: rule,
  summary,
  handler: (_e, { principal }) => ({ ok: true, principal: principal?.kind ?? null, role: principal?.kind === "member" ? principal.role : undefined }),
});

/** Test-only routes: one per grant, plus owner / key / session / account / public / custom. */
export const testRoutes: RouteDef[] = defineRoutes([
  ...ALL_GRANTS.map((g) => echo(grantPath(g), access.grant(g), `test ${g}`)),
  echo("/api/test/owner", access.owner, "test owner"),
  echo("/api/test/key", access.key, "test key"),
  echo("/api/test/session", access.session, "test session"),
  echo("/api/test/account", access.account, "test account"),
  echo("/api/test/public", access.public, "test public"),
  echo("/api/test/custom", access.custom("optional"), "test custom"),
]);

type Init = RequestInit2;

export interface AccessRig {
  t: TestServer;
  wsId: string;
  otherId: string;
  request(path: string, init?: Init): Promise<Response>;
  key(grants: Grant[], workspaceId?: string): Promise<string>;
  user(role: "owner" | "member", grants?: Grant[], email?: string): Promise<{ id: string; email: string }>;
  login(email: string, password?: string, host?: string): Promise<{ access_token: string; refresh_token: string; role: string }>;
  close(): Promise<void>;
}

let seq = 0;

/** demo.localhost (Identity on) and other.localhost (Identity off), plus the test routes. */
export async function startAccessRig(driver: DriverName, options: ServiceOptions = {}): Promise<AccessRig> {
  // Self sign-up is on in the rig: it needs a transport (the mail itself is tested in mail.test.ts).
  const t = await startTestServer(driver, { sendMail: dropMail, ...options });
  const ctx = t.svc.context;
  const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true });
  const other = await ctx.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
  const server: Server = createServer(toNodeHandler(createHttpApp(ctx, [...allRoutes, ...testRoutes])));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init: Init = {}) => requestAt(base, path, init);
  const rig: AccessRig = {
    t,
    wsId: ws.id,
    otherId: other.id,
    request,
    async key(grants, workspaceId = ws.id) {
      return (await ctx.db.apiKeys.create(workspaceId, { name: `k${++seq}`, grants })).value;
    },
    async user(role, grants = [], email = `u${++seq}@example.com`) {
      const u = await createMember(ctx, ws.id, { email, password: PASSWORD, role, grants });
      return { id: u.id, email: u.email };
    },
    async login(email, password = PASSWORD, host = "demo.localhost") {
      const res = await request("/api/dashboard/login", { method: "POST", host, json: { email, password } });
      if (res.status !== 200) throw new Error(`login ${res.status} ${await res.text()}`);
      return res.json();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await t.close();
    },
  };
  return rig;
}

/** An independent oracle of spec 5.4.2 for one held grant set. */
export function oracleAllows(held: readonly Grant[], required: Grant): boolean {
  const [res, act] = required.split(":");
  return held.some((g) => {
    const [hr, ha] = g.split(":");
    if (g === required) return true;
    if (act !== "read") return false;
    return (hr === res && ha === "write") || (res === "collections" && hr === "entries") || (res === "forms" && hr === "submissions");
  });
}
