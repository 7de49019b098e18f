/**
 * First run: an empty data directory gets a ready-to-try demo workspace on the loopback hosts, with
 * an owner (random password) and one API key holding all 16 grants, both returned so `svc serve`
 * prints them once.
 * Neither is stored in clear: the password is scrypt-hashed, the key SHA-256-hashed.
 */
import { randomBytes } from "node:crypto";
import { ALL_GRANTS } from "../core/grants.js";
import type { ServiceContext } from "./context.js";
import { createKey } from "./keys.js";
import { createMember } from "./members.js";

export interface DemoCredentials {
  hosts: string[];
  /** Serves the dashboard; `*.localhost` names resolve to loopback in browsers. */
  dashboardHost?: string;
  owner?: { email: string; password: string };
  apiKey?: string;
}

/**
 * The demo workspace's hosts: every loopback name a local client uses (the port is never part of a
 * host), so `http://127.0.0.1:<port>` as printed by `svc serve` answers; `demo.localhost` resolves
 * in browsers but not in Node or curl on every system.
 */
export const DEMO_HOSTS = ["localhost", "127.0.0.1", "[::1]", "demo.localhost"];

/** The demo owner's sign-in email. */
export const DEMO_OWNER_EMAIL = "owner@demo.localhost";

/** Creates the demo workspace when there is no workspace at all; otherwise does nothing. */
export async function bootstrapDemo(ctx: ServiceContext): Promise<DemoCredentials | undefined> {
  if ((await ctx.workspaces.count()) > 0) return undefined;
  const ws = await ctx.workspaces.create({ slug: "demo", hosts: DEMO_HOSTS, name: "Demo", identity: true });
  const password = randomBytes(18).toString("base64url");
  await createMember(ctx, ws.id, { email: DEMO_OWNER_EMAIL, password, role: "owner" });
  const key = await createKey(ctx, ws.id, { name: "demo (all grants)", grants: [...ALL_GRANTS] });
  return { hosts: ws.hosts, dashboardHost: ws.dashboard_host, owner: { email: DEMO_OWNER_EMAIL, password }, apiKey: key.value };
}
