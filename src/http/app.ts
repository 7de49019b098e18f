/**
 * The h3 app: health probes outside tenancy, then tenant resolution, then every surface's routes
 * with their declared access enforced before the handler runs.
 */
import { H3, type H3Event } from "h3";
import { notFound } from "../core/errors.js";
import type { ServiceContext } from "../services/context.js";
import { authorize } from "./middleware/auth.js";
import { resolveTenant, type TenantWorkspace } from "./middleware/tenant.js";
import { errorResponse, refusedBodyHeaders, toServiceError } from "./errors.js";
import type { RouteDef } from "./route.js";
import { requestLogLine, type RequestLogger } from "./request-log.js";
import { healthRoutes } from "./routes/health.js";
import { allRoutes } from "./routes/index.js";
import { siteFallback } from "./routes/sites.js";
import { dashboardHandler } from "./dashboard/serve.js";

const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600",
};

declare module "h3" {
  interface H3EventContext {
    workspace?: TenantWorkspace;
  }
}

/** Builds the h3 app for a service context; `requestLog` receives one line per answered request. */
export function createHttpApp(service: ServiceContext, routes: RouteDef[] = allRoutes, requestLog?: RequestLogger): H3 {
  const started = new WeakMap<H3Event, number>();
  const app = new H3({
    // We log unexpected errors ourselves, once, without request bodies.
    silent: true,
    ...(requestLog && {
      onRequest(event: H3Event) {
        started.set(event, performance.now());
      },
      // Runs for every response, errors (onError's answer) included.
      onResponse(response: Response, event: H3Event) {
        try {
          requestLog(requestLogLine(event, response.status, started.get(event) ?? performance.now()));
        } catch (error) {
          service.logger.error("request log failed:", error);
        }
      },
    }),
    onError(error, event) {
      const { error: mapped, unexpected } = toServiceError(error);
      if (unexpected) service.logger.error(`${event.req.method} ${new URL(event.req.url).pathname} failed:`, error.cause ?? error);
      const cors = event.context.matchedRoute?.meta?.cors ? CORS_HEADERS : undefined;
      return errorResponse(mapped, { ...cors, ...refusedBodyHeaders(event) });
    },
  });

  healthRoutes(app, service);

  // Tenancy first: an unknown host is 404 Unknown tenant on every path (spec 1.2).
  app.use(async (event) => {
    if (HEALTH_PATHS.has(event.url.pathname)) return;
    if (!event.context.workspace) event.context.workspace = await resolveTenant(event, service);
  });

  for (const route of routes) {
    app.on(route.method, route.path, (event) => runRoute(event, route, service), { meta: { cors: route.cors ?? false } });
    // HEAD answers like GET without a body (RFC 9110 §9.3.2); registered explicitly, else the `/api/**` catch-all would win.
    if (route.method === "GET") app.on("HEAD", route.path, (event) => runRoute(event, route, service), { meta: { cors: route.cors ?? false } });
    if (route.cors) {
      app.on("OPTIONS", route.path, () => new Response(null, { status: 204, headers: CORS_HEADERS }));
    }
  }

  // `/_/` is the dashboard's on every host (served on the dashboard host, redirected elsewhere), never a site's.
  const dashboard = dashboardHandler(service, service.options.dashboard);
  app.all("/_", dashboard);
  app.all("/_/**", dashboard);

  // Unmatched /api/ paths: JSON 404 (never a site page, never CORS).
  app.all("/api/**", () => {
    throw notFound("No such endpoint");
  });
  // Everything else on a workspace host is its static site (GET/HEAD; DESIGN §4.2).
  app.all("/**", siteFallback(service));
  return app;
}

async function runRoute(event: H3Event, route: RouteDef, service: ServiceContext): Promise<unknown> {
  const workspace = event.context.workspace!;
  const principal = await authorize(event, route.access, service, workspace);
  const result = await route.handler(event, { service, workspace, principal });
  if (route.cors && !(result instanceof Response)) {
    for (const [k, v] of Object.entries(CORS_HEADERS)) event.res.headers.set(k, v);
  }
  return result;
}
