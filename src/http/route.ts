/**
 * Route declarations: method, path, access and handler side by side, so a surface's whole access
 * table reads in its one routes file.
 */
import type { H3Event } from "h3";
import type { z } from "zod";
import type { Access } from "./access.js";
import type { Principal } from "../core/principal.js";
import type { ServiceContext } from "../services/context.js";
import type { TenantWorkspace } from "./middleware/tenant.js";

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
  /** Request body, for the OpenAPI document (http/openapi.ts); validation never reads it. */
  body?: BodyDoc;
  /** Query parameters: the zod object the route validates them with, or named and described. */
  query?: z.ZodObject | QueryParamDoc[];
  /** Success response, for the OpenAPI document. */
  response?: ResponseDoc;
  /** Browser-facing routes (forms) answer CORS; nothing else does (spec 1.3). */
  cors?: boolean;
  handler: (event: H3Event, ctx: RouteContext) => unknown;
}

/**
 * A body in the OpenAPI document: the zod schema the route (or its core module) validates it
 * with; a description only for a body whose fields a collection or form defines at run time.
 */
export interface BodyDoc {
  schema?: z.ZodType;
  description?: string;
  /** Default application/json. */
  contentType?: string;
  /** A request may send no body at all. */
  optional?: boolean;
}

/** The success answer: status (default 200), and for lists the item inside `{data, meta}`. */
export interface ResponseDoc extends BodyDoc {
  status?: number;
  /** A list (docs/api-conventions.md): whole `meta: {total}` or paginated `meta: {total, limit, offset}`. */
  list?: "whole" | "page";
}

/** A query parameter the route reads with hand-written validation. */
export interface QueryParamDoc {
  name: string;
  description: string;
  required?: boolean;
}

/** Identity helper that type-checks a routes file. */
export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
