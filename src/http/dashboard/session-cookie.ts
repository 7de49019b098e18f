/**
 * The dashboard's refresh cookie: the SPA keeps no token in web storage, so the refresh token
 * travels as an `HttpOnly` cookie that a new tab of the same browser presents to continue the
 * session. It is opt-in per request (`X-Dashboard-Session: cookie`, sent only by the dashboard on
 * its own host), so API and CLI callers keep the body form of DESIGN §4.2 unchanged, and it is
 * read only by /api/dashboard/refresh and /logout: it never authenticates an API call (spec 5.2.1
 * holds for keys, and a `dr_` token is never a credential).
 *
 * @example
 * if (cookieMode(event, workspace)) setRefreshCookie(event, pair.refresh_token, trustProxy);
 */
import { deleteCookie, getCookie, setCookie, type H3Event } from "h3";
import { badRequest, ServiceError } from "../../core/errors.js";
import { REFRESH_TOKEN_TTL_MS } from "../../core/lifetimes.js";
import type { TenantWorkspace } from "../middleware/tenant.js";

/** The request header by which the dashboard asks for the cookie form. */
export const SESSION_MODE_HEADER = "x-dashboard-session";
export const REFRESH_COOKIE = "svc_dashboard_refresh";
/** Narrowest path that holds both routes that read it (refresh, logout); no other path gets it. */
export const REFRESH_COOKIE_PATH = "/api/dashboard/";

/**
 * True when the request asks for the cookie form. Only on the workspace's dashboard host: the
 * cookie is host-only there, and a site host (which runs its authors' scripts) never gets one.
 */
export function cookieMode(event: H3Event, workspace: TenantWorkspace): boolean {
  if (event.req.headers.get(SESSION_MODE_HEADER)?.trim().toLowerCase() !== "cookie") return false;
  if (!workspace.onDashboardHost) throw badRequest("The session cookie is only available on the workspace's dashboard host");
  return true;
}

/** The attributes of the cookie (exported for its unit test). */
export function refreshCookieOptions(secure: boolean, maxAgeSeconds: number) {
  // No Domain: host-only, so it stays on the dashboard host. Strict: no cross-site request carries it.
  return { httpOnly: true, secure, sameSite: "strict" as const, path: REFRESH_COOKIE_PATH, maxAge: maxAgeSeconds };
}

/** Sets the refresh token a login or refresh just issued (it lives the full refresh lifetime). */
export function setRefreshCookie(event: H3Event, refreshToken: string, trustProxy: boolean): void {
  setCookie(event, REFRESH_COOKIE, refreshToken, refreshCookieOptions(isHttps(event, trustProxy), REFRESH_TOKEN_TTL_MS / 1000));
}

/** Clears the cookie (Max-Age=0) on a successful answer. */
export function clearRefreshCookie(event: H3Event, trustProxy: boolean): void {
  deleteCookie(event, REFRESH_COOKIE, refreshCookieOptions(isHttps(event, trustProxy), 0));
}

/**
 * The `Set-Cookie` that clears the cookie, for an error answer (the error path builds its own
 * response, so it is carried in the error's headers).
 */
export function clearingHeader(event: H3Event, trustProxy: boolean): Record<string, string> {
  clearRefreshCookie(event, trustProxy);
  return { "set-cookie": event.res.headers.getSetCookie().at(-1)! };
}

/**
 * The refresh token in the cookie, after checking that the request comes from the dashboard's own
 * page (CSRF): a workspace's site hosts are the same *site* as its dashboard host, so SameSite alone
 * does not keep their scripts out. `Sec-Fetch-Site` must be same-origin and `Origin` the request's
 * own (isOwnOrigin), whichever the browser sent (it sends at least one on a POST); the opt-in header
 * itself makes a cross-origin request need a preflight, which the dashboard API never grants.
 */
export function readRefreshCookie(event: H3Event, trustProxy: boolean): string | undefined {
  const headers = event.req.headers;
  const site = headers.get("sec-fetch-site");
  const origin = headers.get("origin");
  if ((site === null && origin === null) || (site !== null && site !== "same-origin") || (origin !== null && !isOwnOrigin(event, origin, trustProxy))) {
    throw new ServiceError(403, "forbidden", "The session cookie is accepted only from the dashboard's own page (same origin)");
  }
  return getCookie(event, REFRESH_COOKIE);
}

/** True when the request reached the service over HTTPS (X-Forwarded-Proto only from a trusted proxy). */
export function isHttps(event: H3Event, trustProxy: boolean): boolean {
  return knownScheme(event, trustProxy) === "https";
}

/**
 * True when `origin` names the host and port the request addressed, and its scheme when the
 * service knows it. Behind a TLS-terminating proxy without `trustProxy` the request arrives as
 * plain HTTP while the browser's Origin says https: there the scheme is unknown and only host and
 * port count, which still refuses every other host (a site host included). A port left out means
 * the default of the scheme compared.
 */
function isOwnOrigin(event: H3Event, origin: string, trustProxy: boolean): boolean {
  const authority = requestAuthority(event, trustProxy);
  // Host and port only, so that parsing it below cannot read a different host out of it.
  if (!/^(?:[\w.-]+|\[[\w:.%]+\])(?::\d+)?$/.test(authority)) return false;
  let sent: URL;
  let own: URL;
  try {
    sent = new URL(origin);
    if (sent.protocol !== "http:" && sent.protocol !== "https:") return false;
    own = new URL(`${knownScheme(event, trustProxy) ?? sent.protocol.slice(0, -1)}://${authority}`);
  } catch {
    return false; // "null", or a port out of range
  }
  return sent.protocol === own.protocol && sent.host === own.host;
}

/**
 * The scheme the client used, when the service can know it: a trusted proxy's X-Forwarded-Proto,
 * else the connection's own (https on a direct TLS connection). Plain HTTP without `trustProxy` is
 * undefined, since a proxy in front may have terminated TLS.
 */
function knownScheme(event: H3Event, trustProxy: boolean): "http" | "https" | undefined {
  const forwarded = trustProxy ? event.req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
  const scheme = forwarded ?? event.url.protocol.replace(":", "");
  if (scheme === "https") return "https";
  return trustProxy ? "http" : undefined;
}

/** host[:port] the client addressed, lower-cased, as the tenant router reads it. */
function requestAuthority(event: H3Event, trustProxy: boolean): string {
  const headers = event.req.headers;
  const forwarded = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return (forwarded ?? headers.get("host") ?? event.url.host).toLowerCase();
}
