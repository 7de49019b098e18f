/**
 * Spec 1.1: the hostname is the only scope — no route path carries an account, project,
 * organization, workspace or tenant segment.
 */
import { describe, expect, it } from "vitest";
import { allRoutes } from "../../src/http/routes/index.js";

const SCOPE = /^(account|accounts|project|projects|org|orgs|organization|organizations|workspace|workspaces|tenant|tenants)(Id|_id)?$/i;

describe("route paths", () => {
  it("no path has a scope segment: the hostname is the only scope (spec 1.1)", () => {
    for (const { path } of allRoutes) {
      // The one path outside the three families describes them all (GET /api/openapi.json).
      if (path === "/api/openapi.json") continue;
      expect(path).toMatch(/^\/api\/(v1|dashboard|mcp)(\/|$)/);
      for (const segment of path.split("/").filter(Boolean)) {
        // Identity's own surface /api/v1/accounts/{login,…} is a resource, never a scope: no id follows it.
        if (segment.startsWith(":")) expect(segment.slice(1), path).not.toMatch(SCOPE);
      }
      expect(path, path).not.toMatch(/\/accounts\/:/);
    }
  });
});

describe("owner-only surfaces", () => {
  it("billing (plan, payment) routes, should any exist, are owner-only (spec 5.5)", () => {
    for (const route of allRoutes.filter((r) => /billing|plan|payment/i.test(r.path))) expect(route.access.kind, route.path).toBe("owner");
  });
});
