/**
 * `contentsvc/h3`: the tenant router, the authenticator and the grant guard as h3 v2 middleware,
 * for framework authors who mount pieces in their own h3 app.
 *
 * @example
 * import { H3 } from "h3";
 * import { tenant, requireGrant } from "contentsvc/h3";
 * app.use(tenant(svc.context));
 * app.get("/reports", handler, { middleware: [requireGrant(svc.context, "entries:read")] });
 */
import type { H3Event, Middleware } from "h3";
import type { ServiceContext } from "./service-context.js";
import type { Grant } from "./core/grants.js";
import { resolveTenant } from "./http/middleware/tenant.js";
import { authenticate, authorize } from "./http/middleware/auth.js";
import type { Access, Principal } from "./http/access.js";
import { errorResponse, refusedBodyHeaders, toServiceError } from "./http/errors.js";

export type { Access, Principal } from "./http/access.js";
export type { TenantWorkspace } from "./http/middleware/tenant.js";

declare module "h3" {
  interface H3EventContext {
    principal?: Principal;
  }
}

/** Resolves the workspace from the Host header into `event.context.workspace` (404 Unknown tenant otherwise). */
export function tenant(service: ServiceContext): Middleware {
  return respond(async (event) => {
    event.context.workspace ??= await resolveTenant(event, service);
  });
}

function guard(service: ServiceContext, rule: Access): Middleware {
  return respond(async (event: H3Event) => {
    event.context.workspace ??= await resolveTenant(event, service);
    event.context.principal = await authorize(event, rule, service, event.context.workspace);
  });
}

/**
 * Refusals become the service's own JSON (`401 {"error":"Unauthorized"}`, `403 {"error":"Missing
 * grant: …","grant":…}`) in the embedder's app too, whatever its error handler; unexpected errors
 * propagate to it.
 */
function respond(fn: (event: H3Event) => Promise<void>): Middleware {
  return async (event) => {
    try {
      await fn(event);
    } catch (error) {
      const { error: mapped, unexpected } = toServiceError(error);
      if (unexpected) throw error;
      return errorResponse(mapped, refusedBodyHeaders(event));
    }
  };
}

/** A key or dashboard session holding `grant` (owners bypass); 401/403 otherwise. */
export const requireGrant = (service: ServiceContext, grant: Grant) => guard(service, { kind: "grant", grant });
/** Only an owner's dashboard session. */
export const requireOwner = (service: ServiceContext) => guard(service, { kind: "owner" });
/** Any valid API key (check grants per operation yourself). */
export const requireKey = (service: ServiceContext) => guard(service, { kind: "key" });
/** An account session of a workspace with Identity. */
export const requireAccountSession = (service: ServiceContext) => guard(service, { kind: "account" });
/**
 * Optional authentication: sets `event.context.principal` when a valid credential (account
 * session, key or dashboard session) is sent, leaves it unset when none is, 401 for a bad one.
 */
export const allowAccountSession = (service: ServiceContext): Middleware =>
  respond(async (event: H3Event) => {
    event.context.workspace ??= await resolveTenant(event, service);
    event.context.principal = await authenticate(event, service, event.context.workspace);
  });
