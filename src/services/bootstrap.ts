/**
 * First run: an empty data directory gets a ready-to-try demo workspace on the loopback hosts, with
 * an owner (random password) and one API key holding all 16 grants, both returned so `svc serve`
 * prints them once.
 * Neither is stored in clear: the password is scrypt-hashed, the key SHA-256-hashed.
 */
import { randomBytes } from "node:crypto";
import { ALL_GRANTS } from "../core/grants.js";
import { parseWithSchema } from "../core/body-schema.js";
import { isServiceError } from "../core/errors.js";
import { memberCreateSchema } from "../core/members.js";
import type { ServiceContext, Workspace } from "./context.js";
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

/** A first workspace and its owner, created by `createService` when there is no workspace at all. */
export interface WorkspaceBootstrap {
  workspace: { slug: string; hosts: string[]; name?: string; dashboardHost?: string; identity?: boolean };
  owner: { email: string; password: string };
}

/**
 * Creates `input.workspace` with its owner when no workspace exists; otherwise does nothing, so it
 * is idempotent on restart (and between instances starting together: the loser's 409 on the slug
 * means the other created it). The owner is checked before the workspace is created, so a bad
 * password never leaves an ownerless workspace that later starts would skip.
 */
export async function bootstrapWorkspace(ctx: ServiceContext, input: WorkspaceBootstrap): Promise<Workspace | undefined> {
  const owner = parseWithSchema(memberCreateSchema, { ...input.owner, role: "owner" }, { named: true });
  if ((await ctx.workspaces.count()) > 0) return undefined;
  let ws: Workspace;
  try {
    ws = await ctx.workspaces.create(input.workspace);
  } catch (error) {
    if (isServiceError(error) && error.status === 409) return undefined;
    throw error;
  }
  await createMember(ctx, ws.id, owner);
  return ws;
}

/** What a service without any workspace logs at its first `Unknown tenant`: what to do about it. */
export const NO_WORKSPACE_HINT =
  "No workspace yet: every request answers 404 Unknown tenant until one exists. Create one with `svc workspaces create <slug> --host <host>` (and `svc members create` for its owner), or pass createService's `bootstrap` option (docs/embedding.md#the-first-workspace)";

const hinted = new WeakSet<ServiceContext>();

/**
 * Called when a request names no workspace: the first time in this service, logs
 * NO_WORKSPACE_HINT if there is no workspace at all. Once per process, so an unknown host costs
 * one count at most; and only when it matters (not at the start of `svc serve`, which is about to
 * create its demo workspace).
 */
export async function hintIfNoWorkspace(ctx: ServiceContext): Promise<void> {
  if (hinted.has(ctx)) return;
  hinted.add(ctx);
  if ((await ctx.workspaces.count()) === 0) ctx.logger.info(NO_WORKSPACE_HINT);
}
