/**
 * The delivery API (spec 4.1, DESIGN §4.2): published entries only, never drafts. No CORS
 * headers, ever (spec 1.3): these routes are not `cors`, so a preflight gets none either.
 * Collection names media, forms and accounts are reserved: those /api/v1/ paths belong to
 * other surfaces, whose static segments take precedence in the router.
 *
 * The read itself — content version, response cache, access, query, JSON — is services/delivery.ts.
 */
import { getRouterParam, type H3Event } from "h3";
import { access } from "../access.js";
import { defineRoutes, type RouteContext } from "../route.js";
import { authenticate } from "../middleware/auth.js";
import { deliveryRead } from "../../services/delivery.js";
import { deliveryListParams, entryReadParams } from "../../core/entry-query.js";

const ACCESS = access.custom(
  "public: none (any credential ignored); private: API key with entries:read; gated: that, or an account session satisfying the rule; never a dashboard session",
);

export const deliveryRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/v1/:collection",
    access: ACCESS,
    summary: "List published entries: limit, offset or after, sort, fields, expand, filter[field][op] → {data, meta: {total, limit, offset, next}}",
    query: deliveryListParams,
    response: { list: "page", description: "Published entries; each collection's own path documents its entry schema" },
    handler: (event, ctx) => read(event, ctx, undefined),
  },
  {
    method: "GET",
    path: "/api/v1/:collection/:id",
    access: ACCESS,
    summary: "One published entry: fields, expand → {data}",
    query: entryReadParams,
    response: { description: "{data: entry}" },
    handler: (event, ctx) => read(event, ctx, getRouterParam(event, "id") ?? ""),
  },
]);

async function read(event: H3Event, { service, workspace }: RouteContext, id: string | undefined): Promise<string> {
  const body = await deliveryRead(service, workspace, {
    collection: getRouterParam(event, "collection") ?? "",
    id,
    search: event.url.search,
    params: event.url.searchParams,
    credential: (accept) => authenticate(event, service, workspace, accept),
  });
  // A string body with the type set is cheaper for h3 than building a web Response.
  event.res.headers.set("content-type", "application/json; charset=utf-8");
  return body;
}
