/**
 * The dashboard at `/_/` on the workspace's dashboard host, its own origin: a deployed site runs
 * its authors' scripts on the other hosts, and a script sharing the dashboard's origin could read
 * its tokens or capture a password. So `/_/` is reserved on every host: served on the dashboard
 * host only, redirected there from the others, never a site file (even when the dashboard is
 * off). Hashed assets are immutable; index.html revalidates.
 */
import type { H3Event } from "h3";
import { notFound, ServiceError } from "../../core/errors.js";
import { etagMatches } from "../../core/http-cache.js";
import type { ServiceContext } from "../../services/context.js";
import { dashboardDir, loadDashboardAssets, type DashboardAsset, type DashboardAssets } from "./assets.js";

/** Where the dashboard lives on its host. */
export const DASHBOARD_PREFIX = "/_/";

/** The API reference viewer (`/_/api/`): its own page beside the app, showing GET /api/openapi.json. */
const API_VIEWER_PAGE = "api/index.html";
const API_VIEWER_PATHS = new Set(["api", "api/", API_VIEWER_PAGE]);

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** Headers on every dashboard answer: no framing, no sniffing, no referrer, no opener handle. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

/** True for a path a site may never serve: `/_` and everything under `/_/`. */
export const isDashboardPath = (candidate: string) => candidate === "_" || candidate.startsWith("_/");

/** The `/_` and `/_/**` handler, for an enabled or disabled dashboard. */
export function dashboardHandler(service: ServiceContext, enabled: boolean): (event: H3Event) => Promise<Response> {
  let assets: Promise<DashboardAssets | undefined> | undefined;
  const load = () => {
    assets ??= (async () => {
      const dir = dashboardDir();
      return dir ? loadDashboardAssets(dir) : undefined;
    })();
    return assets;
  };
  return async (event) => {
    const workspace = event.context.workspace!;
    if (!enabled) throw notFound("The dashboard is turned off on this service");
    if (!workspace.onDashboardHost) {
      if (!workspace.dashboardHost) throw notFound("This workspace has no dashboard host");
      return redirect(dashboardUrl(event, service, workspace.dashboardHost), 302);
    }
    const method = event.req.method;
    if (method !== "GET" && method !== "HEAD") {
      throw new ServiceError(405, "method_not_allowed", "The dashboard answers GET and HEAD only", undefined, { allow: "GET, HEAD" });
    }
    const path = event.url.pathname;
    if (!path.startsWith(DASHBOARD_PREFIX)) return redirect(DASHBOARD_PREFIX, 301);
    const built = await load();
    if (!built) throw new ServiceError(503, "unavailable", "The dashboard assets are not built (npm run build)");
    const rest = path.slice(DASHBOARD_PREFIX.length);
    const viewer = API_VIEWER_PATHS.has(rest) ? built.get(API_VIEWER_PAGE) : undefined;
    if (viewer) return assetResponse(event.req, viewer, "no-cache", method);
    const asset = built.get(rest);
    if (asset && rest !== "index.html") return assetResponse(event.req, asset, IMMUTABLE_CACHE, method);
    // Hashed assets never fall back to the page: a stale reference must fail loudly.
    if (rest.startsWith("assets/")) throw notFound("No such dashboard asset");
    return assetResponse(event.req, built.get("index.html")!, "no-cache", method);
  };
}

/** The dashboard URL on its host, keeping the scheme and port the request came with. */
export function dashboardUrl(event: H3Event, service: ServiceContext, host: string): string {
  const headers = event.req.headers;
  const trusted = service.options.trustProxy;
  const rawHost = (trusted ? headers.get("x-forwarded-host")?.split(",")[0] : undefined) ?? headers.get("host") ?? event.url.host;
  const port = /:(\d+)$/.exec(rawHost.trim())?.[1];
  const proto = (trusted ? headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined) ?? event.url.protocol.replace(":", "");
  return `${proto === "https" ? "https" : "http"}://${host}${port ? `:${port}` : ""}${DASHBOARD_PREFIX}`;
}

function redirect(location: string, status: number): Response {
  return new Response(null, { status, headers: { ...DASHBOARD_HEADERS, location, "cache-control": "no-cache" } });
}

function assetResponse(request: Request, asset: DashboardAsset, cacheControl: string, method: string): Response {
  const headers = new Headers({ ...DASHBOARD_HEADERS, etag: asset.etag, "cache-control": cacheControl });
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, asset.etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", asset.contentType);
  headers.set("content-length", String(asset.bytes.byteLength));
  return new Response(method === "HEAD" ? null : (asset.bytes as Uint8Array<ArrayBuffer>), { status: 200, headers });
}
