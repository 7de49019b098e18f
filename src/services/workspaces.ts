/**
 * Workspace settings changed from outside a request (the CLI): site hosts, dashboard host and
 * Identity. Each takes effect on the server's next request (hosts and flags are read per request).
 */
import { badRequest } from "../core/errors.js";
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
  if (change.hosts !== undefined) await ctx.workspaces.setHosts(workspace.id, change.hosts);
  if (change.dashboardHost !== undefined) await ctx.workspaces.setDashboardHost(workspace.id, change.dashboardHost);
  if (change.identity !== undefined && change.identity !== workspace.identity) await ctx.workspaces.setIdentity(workspace.id, change.identity);
  if (change.selfSignup !== undefined && change.selfSignup !== workspace.selfSignup) await ctx.workspaces.setSelfSignup(workspace.id, change.selfSignup);
  return (await ctx.workspaces.bySlug(workspace.slug))!;
}
