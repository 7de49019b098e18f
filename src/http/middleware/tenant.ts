/**
 * Tenant routing (spec 1): the Host header names the workspace; nothing in the path does.
 * Lower-cased, port stripped; X-Forwarded-Host only when the service trusts its proxy.
 */
import type { H3Event } from "h3";
import { unknownTenant } from "../../core/errors.js";
import { tryNormalizeHost } from "../../core/tenancy.js";
import type { ServiceContext } from "../../services/context.js";
import { hintIfNoWorkspace } from "../../services/bootstrap.js";

export interface TenantWorkspace {
  id: string;
  slug: string;
  name: string;
  identity: boolean;
  /** Self sign-up (identity setting, off by default). */
  selfSignup: boolean;
  /** Content version at resolution time (migration 002), when the resolver read it. */
  contentVersion?: number;
  /** Credentials version at resolution time (migration 012), when the resolver read it. */
  credentialsVersion?: number;
  /** The request came on the workspace's dashboard host (which serves `/_/`, never site files). */
  onDashboardHost?: boolean;
  /** The workspace's dashboard host, when it has one. */
  dashboardHost?: string;
}

/** The request's host as the router sees it. */
export function requestHost(event: H3Event, trustProxy: boolean): string | undefined {
  const headers = event.req.headers;
  const forwarded = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0] : undefined;
  return tryNormalizeHost(forwarded ?? headers.get("host") ?? new URL(event.req.url).host);
}

/**
 * Resolves the workspace or throws 404 Unknown tenant. A request presenting a credential reads
 * the tenant afresh (its credentials version with it), so a revoked key is refused at once on
 * every instance; only a request without one may be answered from a pushed in-memory copy.
 */
export async function resolveTenant(event: H3Event, service: ServiceContext): Promise<TenantWorkspace> {
  const host = requestHost(event, service.options.trustProxy);
  const workspace = host ? await service.workspaces.byHost(host, { fresh: event.req.headers.has("authorization") }) : undefined;
  if (!workspace) {
    // A failed count (database down) must not turn the 404 into an error: the hint is a courtesy.
    await hintIfNoWorkspace(service).catch(() => {});
    throw unknownTenant();
  }
  return workspace;
}
