/**
 * The delivery API (spec 4.1, DESIGN §4.2): published entries only, never drafts. No CORS
 * headers, ever (spec 1.3): these routes are not `cors`, so a preflight gets none either.
 * Collection names media, forms and accounts are reserved: those /api/v1/ paths belong to
 * other surfaces, whose static segments take precedence in the router.
 */
import { getRouterParam, type H3Event } from "h3";
import { access } from "../access.js";
import { defineRoutes, type RouteContext } from "../route.js";
import { authenticate } from "../middleware/auth.js";
import { getCollection } from "../../services/collections.js";
import { getEntry, listEntries } from "../../services/entries.js";
import { assertCanRead } from "../../services/gates.js";

const ACCESS = access.custom("public: none (any credential ignored); private: entries:read; gated: entries:read or an account session satisfying the rule");

export const deliveryRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/v1/:collection",
    access: ACCESS,
    summary: "List published entries: limit, offset, sort, filter[field] → {data, meta: {total, limit, offset}}",
    handler: async (event, ctx) => {
      const collection = await readableCollection(event, ctx);
      return listEntries(ctx.service, collection, event.url.searchParams, { publishedOnly: true });
    },
  },
  {
    method: "GET",
    path: "/api/v1/:collection/:id",
    access: ACCESS,
    summary: "One published entry → {data}",
    handler: async (event, ctx) => {
      const collection = await readableCollection(event, ctx);
      return { data: await getEntry(ctx.service, collection, getRouterParam(event, "id") ?? "", { publishedOnly: true }) };
    },
  },
]);

/**
 * The collection the path names, once the caller may read it. A public collection reads no
 * credential at all, so a key sent to it is ignored even when invalid (spec 5.2.3).
 */
async function readableCollection(event: H3Event, { service, workspace }: RouteContext) {
  const collection = await getCollection(service, workspace.id, getRouterParam(event, "collection") ?? "");
  if (collection.access !== "public") await assertCanRead(service, collection, await authenticate(event, service, workspace));
  return collection;
}
