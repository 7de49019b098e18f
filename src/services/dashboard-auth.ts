/**
 * Dashboard sign-in (spec 2.3, 3, 5.1; DESIGN §4.2): a member's or owner's email and password
 * give a short-lived access token carrying role and grants and a refresh token that re-reads them
 * (core/lifetimes.ts). Refresh is the only way a role or grant change reaches a signed-in person.
 *
 * @example
 * const member = await verifyMemberLogin(ctx, ws.id, email, password);
 * if (member) return issueDashboardTokens(ctx, ws.id, member);
 */
import { ServiceError } from "../core/errors.js";
import { REFRESH_REUSE_GRACE_MS } from "../core/lifetimes.js";
import type { RefreshRefusal, TokenPair } from "../storage/dashboard-tokens.js";
import type { Member } from "../storage/members.js";
import type { ServiceContext } from "./context.js";

export type { RefreshRefusal, TokenPair };

/**
 * The 401 of a refused refresh: `error` stays "Unauthorized" (what every 401 says) and `reason`
 * tells the token's holder why, so the dashboard can say "your access was removed" rather than a
 * bare "signed out". It names nothing the holder of the token did not already know.
 */
export const refreshRefused = (reason: RefreshRefusal | "missing", headers?: Record<string, string>) =>
  new ServiceError(401, "unauthorized", "Unauthorized", { reason }, headers);

/**
 * The member an email and password name, or undefined, at the same cost whether the email is
 * unknown, the password wrong or the "password" a token (spec 5.1: a key cannot sign in).
 */
export function verifyMemberLogin(ctx: ServiceContext, workspaceId: string, email: unknown, password: unknown): Promise<Member | undefined> {
  return ctx.db.members.verifyLogin(workspaceId, email, password);
}

/** A fresh token pair for a member who just proved their password. */
export function issueDashboardTokens(ctx: ServiceContext, workspaceId: string, member: Pick<Member, "id" | "role" | "grants">): Promise<TokenPair> {
  return ctx.db.dashboardTokens.issue(workspaceId, member);
}

/**
 * Exchanges a refresh token (single use) for a pair carrying the current role and grants; 401
 * with the reason otherwise (refreshRefused). A used token presented again has been copied: every
 * token of its sign-in is revoked, so neither the thief nor the user keeps a session (the user
 * signs in again), and it is logged. `fromCookie`: the token came from the dashboard's refresh
 * cookie, which every tab of a browser shares, so the token spent last, presented again within
 * REFRESH_REUSE_GRACE_MS, renews instead (its answer was lost); the body form never gets that.
 */
export async function refreshDashboardTokens(
  ctx: ServiceContext,
  workspaceId: string,
  refreshToken: unknown,
  { fromCookie = false }: { fromCookie?: boolean } = {},
): Promise<TokenPair> {
  const outcome = await ctx.db.dashboardTokens.refresh(workspaceId, refreshToken, { reuseGraceMs: fromCookie ? REFRESH_REUSE_GRACE_MS : 0 });
  if (outcome.pair) {
    if (outcome.graced) ctx.logger.info(`dashboard refresh cookie presented again within the reuse grace: renewed that sign-in in workspace ${workspaceId}`);
    return outcome.pair;
  }
  if (outcome.replay) {
    const { memberId, revoked } = outcome.replay;
    ctx.logger.warn(`dashboard refresh token used twice: signed out that sign-in of member ${memberId} in workspace ${workspaceId} (${revoked} tokens revoked)`);
  }
  throw refreshRefused(outcome.refused);
}

/** Signs out: ends the sign-in of the access token and, when given and the member's own, of the refresh token. */
export function endDashboardSession(ctx: ServiceContext, workspaceId: string, memberId: string, accessToken: string, refreshToken?: unknown): Promise<void> {
  return ctx.db.dashboardTokens.logout(workspaceId, memberId, accessToken, refreshToken);
}
