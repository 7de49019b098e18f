/**
 * GET /api/dashboard/sdk (spec 4.3): generated TypeScript types for every collection of the
 * workspace plus a typed delivery client (core/sdk.ts). A dashboard session or a key, each
 * holding collections:read (DESIGN §4.2; owners bypass grants).
 */
import { access } from "../access.js";
import { defineRoutes } from "../route.js";
import { generateSdk } from "../../core/sdk.js";
import { listCollections } from "../../services/collections.js";

export const sdkRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/sdk",
    access: access.grant("collections:read"),
    summary: "Generated TypeScript types + typed delivery client (application/typescript)",
    response: { contentType: "application/typescript", description: "One TypeScript file: an interface per collection and a typed delivery client" },
    // A key limited to some collections gets only theirs (core/key-scope.ts).
    handler: async (_event, { service, workspace, principal }) =>
      new Response(generateSdk(await listCollections(service, workspace.id, principal)), {
        headers: {
          "content-type": "application/typescript; charset=utf-8",
          "content-disposition": `inline; filename="${workspace.slug}-sdk.ts"`,
          "cache-control": "no-store",
        },
      }),
  },
]);
