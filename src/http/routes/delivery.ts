/**
 * The delivery API (spec 4.1, DESIGN §4.2): published entries only, never drafts. No CORS
 * headers, ever (spec 1.3): these routes are not `cors`, so a preflight gets none either.
 * Collection names media, forms and accounts are reserved: those /api/v1/ paths belong to
 * other surfaces, whose static segments take precedence in the router.
 *
 * Responses are cached per workspace content version (services/delivery-cache.ts); the access
 * check runs on every request, cached or not.
 */
import { getRouterParam, type H3Event } from "h3";
import { access } from "../access.js";
import { defineRoutes, type RouteContext } from "../route.js";
import { authenticate } from "../middleware/auth.js";
import type { StoredCollection } from "../../services/collections.js";
import { listEntries, readEntry, type ExpandCheck } from "../../services/entries.js";
import { assertCanExpand, assertCanRead, readerKinds } from "../../services/gates.js";
import type { TotalsMemo } from "../../services/delivery-cache.js";
import { deliveryListJson } from "../../services/delivery-list.js";
import { deliveryListParams, entryReadParams } from "../../core/entry-query.js";
import type { Principal } from "../../core/principal.js";

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
    handler: (event, ctx) =>
      cached(event, ctx, `l|${event.url.search}`, async (collection, checkExpand, totals) =>
        (await deliveryListJson(ctx.service, collection, event.url.searchParams, totals)) ??
        listEntries(ctx.service, collection, event.url.searchParams, { publishedOnly: true, checkExpand }),
      ),
  },
  {
    method: "GET",
    path: "/api/v1/:collection/:id",
    access: ACCESS,
    summary: "One published entry: fields, expand → {data}",
    query: entryReadParams,
    response: { description: "{data: entry}" },
    handler: (event, ctx) => {
      const id = getRouterParam(event, "id") ?? "";
      // JSON keeps id and query apart whatever characters either holds.
      return cached(event, ctx, `e|${JSON.stringify([id, event.url.search])}`, async (collection, checkExpand) => ({
        data: await readEntry(ctx.service, collection, id, event.url.searchParams, { publishedOnly: true, checkExpand }),
      }));
    },
  },
]);

/**
 * A cached response also remembers the collections its `expand` read: their access is checked
 * again on every hit, like the listed collection's. Any change to a collection or entry of the
 * workspace (an expanded target included) bumps the content version, so no stale expansion is
 * ever served.
 */
async function cached(
  event: H3Event,
  ctx: RouteContext,
  variant: string,
  /** The response, or its JSON text already. */
  build: (collection: StoredCollection, checkExpand: ExpandCheck, totals: TotalsMemo) => Promise<unknown>,
): Promise<string> {
  const { service, workspace } = ctx;
  const cache = service.caches.delivery;
  const name = getRouterParam(event, "collection") ?? "";
  const key = `${workspace.id}|${name}|${variant}`;
  // Read with the tenant, before any data: see services/delivery-cache.ts for why the order matters.
  const version = workspace.contentVersion ?? (await cache.version(workspace.id));
  const hit = cache.get(key, version);
  const collection = hit?.collection ?? (await cache.collection(workspace.id, name, version));
  const readable = assertReadable(event, ctx, collection);
  if (readable) await readable;
  // Read at most once, and only when an expansion into a non-public collection needs it.
  let who: Principal | undefined | Promise<Principal | undefined>;
  const principal = () => (who ??= authenticate(event, service, workspace, ["key", "account"]));
  const checkExpand: ExpandCheck = (target) => assertCanExpand(service, collection, target, principal);
  for (const target of hit?.expanded ?? []) await checkExpand(target);
  let body = hit?.body;
  if (body === undefined) {
    const expanded: StoredCollection[] = [];
    const built = await build(
      collection,
      async (target) => {
        await checkExpand(target);
        expanded.push(target);
      },
      cache.totals(version),
    );
    body = typeof built === "string" ? built : JSON.stringify(built);
    cache.set(key, version, { collection, expanded, body });
  }
  // A string body with the type set is cheaper for h3 than building a web Response.
  event.res.headers.set("content-type", "application/json; charset=utf-8");
  return body;
}

/**
 * A public collection reads no credential at all, so a key sent to it is ignored even when invalid
 * (spec 5.2.3). Otherwise only the kinds of credential the collection accepts are even looked up.
 * Undefined when there is nothing to wait for (a public read awaits nothing here).
 */
function assertReadable(event: H3Event, { service, workspace }: RouteContext, collection: StoredCollection): Promise<void> | undefined {
  if (collection.access === "public") return undefined;
  const principal = authenticate(event, service, workspace, readerKinds(collection));
  return principal instanceof Promise ? principal.then((p) => assertCanRead(service, collection, p)) : assertCanRead(service, collection, principal);
}
