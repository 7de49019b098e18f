/**
 * GET /api/openapi.json: the workspace's OpenAPI 3.1 document (http/openapi.ts). Readable without
 * a credential, since the routes are the same on every workspace; the entry schemas of private and gated
 * collections are workspace data readable with collections:read only (like GET /api/dashboard/sdk),
 * so the anonymous document lists public collections alone. The document differs by credential in
 * that alone: two classes, each built once per content version (http/openapi-cache.ts), with a
 * strong ETag answered 304 on If-None-Match.
 */
import { access } from "../access.js";
import { defineRoutes, type RouteDef } from "../route.js";
import { authenticate } from "../middleware/auth.js";
import { openApiDocument } from "../openapi.js";
import { openApiCache } from "../openapi-cache.js";
import { hasGrant } from "../../core/grants.js";
import { etagMatches } from "../../core/http-cache.js";
import { listCollections } from "../../services/collections.js";
import { inCollectionScope } from "../../core/key-scope.js";
import { contentVersion } from "../../services/delivery.js";
import type { Principal } from "../../core/principal.js";

const mayReadDefinitions = (p: Principal | undefined) =>
  p !== undefined && p.kind !== "account" && ((p.kind === "member" && p.role === "owner") || hasGrant(p.grants, "collections:read"));

/** The route, documenting `routes()` (read when asked, so the list may include this route itself). */
export function openApiRoutes(routes: () => readonly RouteDef[]): RouteDef[] {
  return defineRoutes([
    {
      method: "GET",
      path: "/api/openapi.json",
      access: access.custom("none; private and gated collections' schemas only with a key or dashboard session holding collections:read"),
      summary: "This workspace's OpenAPI 3.1 document (routes, bodies, per-collection entry schemas)",
      response: { description: "An OpenAPI 3.1 document" },
      handler: async (event, { service, workspace }) => {
        const principal = await authenticate(event, service, workspace, ["key", "member"]);
        const visible = mayReadDefinitions(principal);
        // Read before the collections, so a race labels newer collections with an older version
        // (a later rebuild), never older collections with a newer one.
        const version = await contentVersion(service, workspace);
        // A key limited to some collections sees only theirs beyond the public ones (core/key-scope.ts).
        const scope = principal?.kind === "key" ? (principal.collections ?? null) : null;
        const key = JSON.stringify([workspace.id, version, workspace.name, visible, scope]);
        const document = await openApiCache(service).get(key, async () => {
          const all = await listCollections(service, workspace.id);
          const collections = all.filter((c) => c.access === "public" || (visible && inCollectionScope(principal, c.name)));
          return openApiDocument(routes(), collections, { title: workspace.name });
        });
        event.res.headers.set("cache-control", "no-cache");
        event.res.headers.set("vary", "authorization");
        event.res.headers.set("etag", document.etag);
        const ifNoneMatch = event.req.headers.get("if-none-match");
        if (ifNoneMatch && etagMatches(ifNoneMatch, document.etag)) {
          event.res.status = 304;
          return null;
        }
        event.res.headers.set("content-type", "application/json; charset=utf-8");
        return document.body;
      },
    },
  ]);
}
