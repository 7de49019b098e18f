/**
 * Workspace settings changed from outside a request (the CLI): site hosts, dashboard host and
 * Identity. Each takes effect on the server's next request (hosts and flags are read per request).
 */
import { badRequest, conflict } from "../core/errors.js";
import { MAIL_TRANSPORT_OPTIONS } from "./mail.js";
import type { Workspace } from "./context.js";
import type { ServiceContext } from "./context.js";

export interface WorkspaceChange {
  /** Replaces the site hosts. */
  hosts?: string[];
  dashboardHost?: string;
  identity?: boolean;
  selfSignup?: boolean;
}

/** Applies `change` to `workspace` and returns the workspace as stored afterwards. */
export async function updateWorkspace(ctx: ServiceContext, workspace: Workspace, change: WorkspaceChange): Promise<Workspace> {
  if (Object.values(change).every((v) => v === undefined)) throw badRequest("Nothing to change");
  assertSelfSignupCanStart(ctx, workspace.selfSignup, change.selfSignup);
  if (change.hosts !== undefined) await ctx.workspaces.setHosts(workspace.id, change.hosts);
  if (change.dashboardHost !== undefined) await ctx.workspaces.setDashboardHost(workspace.id, change.dashboardHost);
  if (change.identity !== undefined && change.identity !== workspace.identity) await ctx.workspaces.setIdentity(workspace.id, change.identity);
  if (change.selfSignup !== undefined && change.selfSignup !== workspace.selfSignup) await ctx.workspaces.setSelfSignup(workspace.id, change.selfSignup);
  return (await ctx.workspaces.bySlug(workspace.slug))!;
}

/** The site hosts of a workspace (its dashboard host left out), sorted; empty for an unknown slug. */
export async function siteHosts(ctx: ServiceContext, slug: string): Promise<string[]> {
  return (await ctx.workspaces.bySlug(slug))?.hosts ?? [];
}

/**
 * Self sign-up mails each new account its verification token: turning it on without a mail
 * transport is refused (409), never left to fail at the first sign-up. Already on stays on.
 */
export function assertSelfSignupCanStart(ctx: ServiceContext, current: boolean, wanted: boolean | undefined): void {
  if (wanted && !current && !ctx.sendMail) {
    throw conflict(`Self sign-up needs a mail transport for its verification e-mails, and this service has none: ${MAIL_TRANSPORT_OPTIONS}`, { mail_transport: false });
  }
}
