/**
 * Dashboard sign-in (spec 2.3, 3, 5.1; DESIGN §4.2): email + password → a short-lived access token
 * carrying role and grants, plus a refresh token that re-reads them. A key cannot sign in. The
 * dashboard itself asks for the cookie form (dashboard/session-cookie.ts): the refresh token is
 * then an HttpOnly cookie instead of a body field; every other caller uses the body form.
 */
import { badRequest, ServiceError, unauthorized } from "../../core/errors.js";
import { verifyAgainstDummy } from "../../core/passwords.js";
import { tokenKind } from "../../core/keys.js";
import {
  endDashboardSession,
  issueDashboardTokens,
  refreshDashboardTokens,
  refreshRefused,
  verifyMemberLogin,
  type RefreshRefusal,
  type TokenPair,
} from "../../services/dashboard-auth.js";
import { access } from "../access.js";
import { readJson, readJsonObject } from "../body.js";
import { clearingHeader, clearRefreshCookie, cookieMode, readRefreshCookie, setRefreshCookie, SESSION_MODE_HEADER } from "../dashboard/session-cookie.js";
import { bearerToken } from "../middleware/auth.js";
import { beginSignIn } from "../middleware/login-limit.js";
import { tokenPairSchema } from "../responses.js";
import { defineRoutes } from "../route.js";
import { isServiceError } from "../../core/errors.js";
import type { H3Event } from "h3";
import { z } from "zod";

/**
 * The one answer to every failed sign-in — unknown email, wrong password, a key or token as the
 * password or as the bearer — so the response tells nothing about which accounts exist.
 */
export const loginFailed = () => new ServiceError(401, "unauthorized", "Invalid email or password");

/** The body of both sign-ins (dashboard and account); other keys are ignored. */
export const credentialsSchema = z.object({ email: z.string(), password: z.string() });

/**
 * The body of a refresh, and the optional one of a sign-out. Anything that is not a live token
 * of the right kind is 401 without saying why (storage checks the token), so any other body is
 * answered the same.
 */
export const refreshBodySchema = z.object({
  refresh_token: z.string().meta({ description: `The dr_ token of the last pair; omitted in the cookie form (${SESSION_MODE_HEADER}: cookie)` }),
});
const optionalRefreshSchema = refreshBodySchema.partial();

/** Reads `{email, password}`; 400 only for a body that is not that object (no oracle in it). */
export function readCredentials(body: Record<string, unknown>): { email: string; password: string } {
  const parsed = credentialsSchema.safeParse(body);
  if (!parsed.success) throw badRequest("Send {email, password} as strings");
  return { email: parsed.data.email, password: parsed.data.password };
}

/** True when the request carries an API key: spec 5.1, a key never becomes a session. */
export const sentApiKey = (event: Parameters<typeof bearerToken>[0]) => tokenKind(bearerToken(event) ?? "") === "api_key";

export const dashboardAuthRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/dashboard/login",
    access: access.public,
    summary: "Sign in with {email, password} → {access_token, refresh_token, expires_in, role}",
    body: { schema: credentialsSchema },
    response: { schema: tokenPairSchema, description: "The token pair" },
    async handler(event, { service, workspace }) {
      const useCookie = cookieMode(event, workspace);
      const { email, password } = readCredentials(await readJsonObject(event, service.options.bodyLimit));
      const attempt = await beginSignIn(event, service, "dashboard", workspace.id, email);
      const user = sentApiKey(event)
        ? await verifyAgainstDummy(password, service.options.passwordParams).then(() => undefined)
        : await verifyMemberLogin(service, workspace.id, email, password);
      if (!user) throw loginFailed();
      await attempt.succeeded();
      const pair = await issueDashboardTokens(service, workspace.id, user);
      return useCookie ? intoCookie(event, pair, service.options.trustProxy) : pair;
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/refresh",
    access: access.public,
    summary:
      "Exchange {refresh_token} (or, for the dashboard, its refresh cookie) for a new pair carrying the current role and grants (spec 3); a refusal's 401 names its reason",
    body: { schema: refreshBodySchema },
    response: { schema: tokenPairSchema, description: "A new token pair" },
    async handler(event, { service, workspace }) {
      const trustProxy = service.options.trustProxy;
      if (!cookieMode(event, workspace)) {
        const body = refreshBodySchema.safeParse(await readJsonObject(event, service.options.bodyLimit));
        if (!body.success) throw unauthorized();
        return refreshDashboardTokens(service, workspace.id, body.data.refresh_token);
      }
      const body = optionalRefreshSchema.safeParse((await readJson(event, service.options.bodyLimit)) ?? {});
      // Only a token from the shared cookie gets the reuse grace; one sent in the body is the caller's own.
      const sent = body.success ? body.data.refresh_token : undefined;
      const fromCookie = sent === undefined;
      const token = sent ?? readRefreshCookie(event, trustProxy);
      // No cookie: a tab of a browser that is not signed in (no notice to show), not a refusal to explain.
      if (token === undefined) throw refreshRefused("missing");
      try {
        return intoCookie(event, await refreshDashboardTokens(service, workspace.id, token, { fromCookie }), trustProxy);
      } catch (error) {
        // A refused cookie is dead: clear it, so the browser stops presenting it.
        if (isServiceError(error) && error.status === 401) throw refreshRefused(error.details?.reason as RefreshRefusal, clearingHeader(event, trustProxy));
        throw error;
      }
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/logout",
    access: access.session,
    summary: "Sign out: ends the presented access token and the {refresh_token} sent (or the dashboard's refresh cookie, which is cleared), if any",
    body: { optional: true, schema: optionalRefreshSchema, description: "Optional {refresh_token} to end as well" },
    response: { status: 204 },
    async handler(event, { service, workspace, principal }) {
      // Signing out never fails on its body: one that is not {refresh_token} ends the access token only.
      const body = optionalRefreshSchema.safeParse(await readJson(event, service.options.bodyLimit));
      let refreshToken = body.success ? body.data.refresh_token : undefined;
      const trustProxy = service.options.trustProxy;
      if (cookieMode(event, workspace)) {
        // The bearer access token already proves the request is the dashboard's own (no CSRF).
        refreshToken ??= readRefreshCookieQuietly(event, trustProxy);
        clearRefreshCookie(event, trustProxy);
      }
      await endDashboardSession(service, workspace.id, principal!.id, bearerToken(event)!, refreshToken);
      return new Response(null, { status: 204 });
    },
  },
]);

/** The pair without its refresh token, which goes into the cookie instead (never readable by scripts). */
function intoCookie(event: H3Event, pair: TokenPair, trustProxy: boolean): Omit<TokenPair, "refresh_token"> {
  const { refresh_token, ...rest } = pair;
  setRefreshCookie(event, refresh_token, trustProxy);
  return rest;
}

/** The cookie on sign-out, where a cross-origin check failing only means there is nothing more to end. */
function readRefreshCookieQuietly(event: H3Event, trustProxy: boolean): string | undefined {
  try {
    return readRefreshCookie(event, trustProxy);
  } catch {
    return undefined;
  }
}
