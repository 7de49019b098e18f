/**
 * The one authentication path (spec 5): a bearer token is told apart by its prefix (pk_ key,
 * ds_ dashboard access token, as_ account session) and resolved into a principal of the request's
 * workspace; then the route's access is enforced. A credential of another workspace is unknown here.
 * Only the Authorization header is read: no query-parameter or cookie form exists (spec 5.2.1).
 * A `dr_` refresh token is never a credential; it is only exchanged at /api/dashboard/refresh.
 */
import type { H3Event } from "h3";
import { forbidden, notFound, unauthorized } from "../../core/errors.js";
import { hashToken, parseBearer, tokenKind, type TokenKind } from "../../core/keys.js";
import { findAccountSession, findDashboardToken, recordKeyUse } from "../../services/credentials.js";
import { cachedWorkspaceKey, loadWorkspaceKey, type WorkspaceKey } from "../../services/key-cache.js";
import type { ServiceContext } from "../../services/context.js";
import type { Access } from "../access.js";
import { assertHoldsGrant, isOwner, type Principal } from "../../core/principal.js";
import type { TenantWorkspace } from "./tenant.js";

/** The refusal of account routes on a workspace without Identity (spec 2.4). */
export const identityDisabled = () =>
  notFound("Identity is not enabled on this workspace; account sign-up, sign-in and sessions are unavailable", {
    identity: false,
  });

/** The bearer token of the request, or undefined when the header is missing or malformed. */
export function bearerToken(event: H3Event): string | undefined {
  return parseBearer(event.req.headers.get("authorization"));
}

declare module "h3" {
  interface H3EventContext {
    /** Set once a credential was checked (request log). */
    principal?: Principal;
  }
}

/** The principal each bearer prefix resolves to; a `dr_` refresh token resolves to none. */
const PRINCIPAL_OF: Partial<Record<TokenKind, Principal["kind"]>> = { api_key: "key", dashboard_access: "member", account_session: "account" };

/**
 * The principal a request's Authorization header names, or undefined when there is none.
 * Throws 401 for a malformed, unknown, expired or revoked credential, and — without looking it
 * up — for one whose kind is not in `accept` (a route that takes only some credentials). An API
 * key current in the key cache (services/key-cache.ts) is answered synchronously: the key check of
 * a cached read costs no promise. Anything else is looked up (a promise).
 */
export function authenticate(
  event: H3Event,
  service: ServiceContext,
  workspace: TenantWorkspace,
  accept?: readonly Principal["kind"][],
): Principal | undefined | Promise<Principal | undefined> {
  const header = event.req.headers.get("authorization");
  if (header === null) return undefined;
  const token = parseBearer(header);
  if (!token) throw unauthorized();
  const kind = tokenKind(token);
  const principalKind = kind && PRINCIPAL_OF[kind];
  if (accept && !(principalKind && accept.includes(principalKind))) throw unauthorized();
  const hash = hashToken(token);
  const cached = kind === "api_key" ? cachedWorkspaceKey(service, hash, workspace) : undefined;
  if (cached) return remember(event, keyPrincipal(service, cached));
  return lookUp(service, workspace, kind, hash).then((principal) => remember(event, principal));
}

/** Keeps the principal for the request log (who asked), never the credential itself. */
function remember(event: H3Event, principal: Principal): Principal {
  event.context.principal = principal;
  return principal;
}

/** The principal of an active key of the workspace, its use recorded. */
function keyPrincipal(service: ServiceContext, key: WorkspaceKey): Principal {
  recordKeyUse(service, key.credential, service.now());
  return key.principal;
}

/** A credential not in the key cache, looked up by its hash: the principal, or 401. */
async function lookUp(service: ServiceContext, workspace: TenantWorkspace, kind: TokenKind | undefined, hash: string): Promise<Principal> {
  const now = service.now();
  switch (kind) {
    case "api_key": {
      const key = await loadWorkspaceKey(service, hash, workspace);
      if (!key) throw unauthorized();
      return keyPrincipal(service, key);
    }
    case "dashboard_access": {
      const session = await findDashboardToken(service, hash);
      if (!session || session.kind !== "access" || session.workspaceId !== workspace.id) throw unauthorized();
      if (Date.parse(session.expiresAt) <= now) throw unauthorized();
      return { kind: "member", id: session.memberId, workspaceId: session.workspaceId, role: session.role, grants: session.grants };
    }
    case "account_session": {
      const session = await findAccountSession(service, hash);
      if (!session || session.workspaceId !== workspace.id || !workspace.identity) throw unauthorized();
      if (!session.active || Date.parse(session.expiresAt) <= now) throw unauthorized();
      return {
        kind: "account",
        id: session.userId,
        workspaceId: session.workspaceId,
        email: session.email,
        emailVerified: session.emailVerified,
        attributes: session.attributes,
      };
    }
    default:
      throw unauthorized();
  }
}

/** Enforces a route's access; returns the principal the handler may use. */
export async function authorize(
  event: H3Event,
  accessRule: Access,
  service: ServiceContext,
  workspace: TenantWorkspace,
): Promise<Principal | undefined> {
  if (accessRule.kind === "public") return undefined; // spec 5.2.3: a key sent is ignored
  if (accessRule.kind === "account" && !workspace.identity) throw identityDisabled();
  // custom: the handler reads credentials itself, if at all (a public collection ignores even an invalid one).
  if (accessRule.kind === "custom") return undefined;
  const principal = await authenticate(event, service, workspace);
  if (!principal) throw unauthorized();
  switch (accessRule.kind) {
    case "grant":
      assertHoldsGrant(principal, accessRule.grant);
      return principal;
    case "owner":
      if (isOwner(principal)) return principal;
      throw forbidden("Only a workspace owner can do this (owner-only, cannot be granted)");
    case "key":
      if (principal.kind !== "key") throw unauthorized();
      return principal;
    case "session":
      if (principal.kind !== "member") throw forbidden("A dashboard session is required");
      return principal;
    case "account":
      if (principal.kind !== "account") throw forbidden("An account session is required");
      return principal;
  }
}


