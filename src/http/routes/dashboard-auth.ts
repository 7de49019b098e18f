/**
 * Dashboard sign-in (spec 2.3, 3, 5.1; DESIGN §4.2): email + password → a one-hour access token
 * carrying role and grants, plus a refresh token that re-reads them. A key cannot sign in.
 */
import { badRequest, ServiceError, unauthorized } from "../../core/errors.js";
import { verifyAgainstDummy } from "../../core/passwords.js";
import { tokenKind } from "../../core/keys.js";
import { endDashboardSession, issueDashboardTokens, refreshDashboardTokens, verifyMemberLogin } from "../../services/dashboard-auth.js";
import { access } from "../access.js";
import { readJson, readJsonObject } from "../body.js";
import { bearerToken } from "../middleware/auth.js";
import { beginSignIn } from "../middleware/login-limit.js";
import { tokenPairSchema } from "../responses.js";
import { defineRoutes } from "../route.js";
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
export const refreshBodySchema = z.object({ refresh_token: z.string().meta({ description: "The dr_ token of the last pair" }) });
const logoutBodySchema = refreshBodySchema.partial();

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
      const { email, password } = readCredentials(await readJsonObject(event, service.options.bodyLimit));
      const attempt = await beginSignIn(event, service, "dashboard", workspace.id, email);
      const user = sentApiKey(event)
        ? await verifyAgainstDummy(password, service.options.passwordParams).then(() => undefined)
        : await verifyMemberLogin(service, workspace.id, email, password);
      if (!user) throw loginFailed();
      await attempt.succeeded();
      return issueDashboardTokens(service, workspace.id, user);
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/refresh",
    access: access.public,
    summary: "Exchange {refresh_token} for a new pair carrying the current role and grants (spec 3)",
    body: { schema: refreshBodySchema },
    response: { schema: tokenPairSchema, description: "A new token pair" },
    async handler(event, { service, workspace }) {
      const body = refreshBodySchema.safeParse(await readJsonObject(event, service.options.bodyLimit));
      if (!body.success) throw unauthorized();
      return refreshDashboardTokens(service, workspace.id, body.data.refresh_token);
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/logout",
    access: access.session,
    summary: "Sign out: ends the presented access token and the {refresh_token} sent, if any",
    body: { optional: true, schema: logoutBodySchema, description: "Optional {refresh_token} to end as well" },
    response: { status: 204 },
    async handler(event, { service, workspace, principal }) {
      // Signing out never fails on its body: one that is not {refresh_token} ends the access token only.
      const body = logoutBodySchema.safeParse(await readJson(event, service.options.bodyLimit));
      await endDashboardSession(service, workspace.id, principal!.id, bearerToken(event)!, body.success ? body.data.refresh_token : undefined);
      return new Response(null, { status: 204 });
    },
  },
]);
