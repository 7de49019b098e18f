/**
 * Serving the live static site (DESIGN §4.2): every GET/HEAD outside `/api/` on a workspace host.
 * `/` and `/dir/` → index.html, clean URLs (`/about` → about, about.html, about/index.html),
 * `404.html` with status 404 when deployed (else JSON 404; `/` says where the API and dashboard
 * are, site-welcome.ts), types by extension, strong ETags with
 * If-None-Match → 304. The live pointer is read on every request, so a rollback is served at once.
 */
import type { H3Event } from "h3";
import { badRequest, notFound, ServiceError } from "../../core/errors.js";
import { etagMatches } from "../../core/http-cache.js";
import { requestCandidates } from "../../core/site-paths.js";
import type { ServiceContext } from "../../services/context.js";
import { resolveSiteFile, type SiteFile } from "../../services/sites.js";
import { DASHBOARD_PREFIX, isDashboardPath } from "../dashboard/serve.js";
import { NO_SITE_MESSAGE, noSiteResponse } from "./site-welcome.js";

/** HTML revalidates every time (a deploy or rollback shows at once); assets may be reused briefly. */
export const SITE_HTML_CACHE = "no-cache";
export const SITE_ASSET_CACHE = "public, max-age=60";

/**
 * The catch-all handler for non-`/api/` paths; register it after every other route.
 *
 * @example
 * app.all("/**", siteFallback(service));
 */
export function siteFallback(service: ServiceContext): (event: H3Event) => Promise<Response> {
  return async (event) => {
    const method = event.req.method;
    if (method !== "GET" && method !== "HEAD") {
      throw new ServiceError(405, "method_not_allowed", "The site answers GET and HEAD only", undefined, { allow: "GET, HEAD" });
    }
    if (event.context.workspace!.onDashboardHost) {
      if (event.url.pathname === "/") return new Response(null, { status: 302, headers: { location: DASHBOARD_PREFIX } });
      throw notFound("The dashboard host serves no site files");
    }
    const candidates = requestCandidates(event.url.pathname);
    if (!candidates) throw badRequest("Invalid path");
    // An encoded or doubled-slash spelling of `/_/` must not reach a deployed `_/` either.
    if (candidates.some(isDashboardPath)) throw notFound("Not found");
    const result = await resolveSiteFile(service, event.context.workspace!.id, candidates);
    if (!result.deployed) {
      if (event.url.pathname === "/") return noSiteResponse(event, service);
      throw notFound(NO_SITE_MESSAGE);
    }
    if (!result.file) throw notFound("Not found");
    return siteResponse(event.req, result.file, result.notFound ? 404 : 200);
  };
}

function siteResponse(request: Request, file: SiteFile, status: number): Response {
  const etag = `"${file.sha256}"`;
  const html = file.content_type.startsWith("text/html");
  const headers = new Headers({
    etag,
    "cache-control": html || status === 404 ? SITE_HTML_CACHE : SITE_ASSET_CACHE,
    "x-content-type-options": "nosniff",
  });
  const ifNoneMatch = request.headers.get("if-none-match");
  if (status === 200 && ifNoneMatch && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", file.content_type);
  headers.set("content-length", String(file.bytes.byteLength));
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, { status, headers });
}
