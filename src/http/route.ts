/**
 * Route declarations: method, path, access and handler side by side, so a surface's whole access
 * table reads in its one routes file.
 */
import type { H3Event } from "h3";
import type { Access } from "./access.js";
import type { Principal } from "../core/principal.js";
import type { ServiceContext } from "../services/context.js";
import type { TenantWorkspace } from "./middleware/tenant.js";
import type { ZodType } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext {
  service: ServiceContext;
  workspace: TenantWorkspace;
  /** Set when the route's access demanded and found a credential. */
  principal: Principal | undefined;
}

export interface RouteDef {
  method: HttpMethod;
  /** rou3 syntax, e.g. `/api/v1/:collection/:id`. */
  path: string;
  access: Access;
  /** One line for the generated access table. */
  summary: string;
  /** Browser-facing routes (forms) answer CORS; nothing else does (spec 1.3). */
  cors?: boolean;
  /** Its query parameters, described once (the route parses them itself; docs and OpenAPI read this). */
  query?: ZodType;
  handler: (event: H3Event, ctx: RouteContext) => unknown;
}

/** Identity helper that type-checks a routes file. */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
