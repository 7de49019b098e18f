/**
 * docs/api.md is rendered from the OpenAPI document of the route table (no workspace collections):
 * this test fails when the committed copy is stale. SVC_UPDATE_DOCS=1 rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderApiReference, typeOf } from "../../src/http/api-reference.js";
import { openApiDocument } from "../../src/http/openapi.js";
import { allRoutes } from "../../src/http/routes/index.js";

const FILE = "docs/api.md";
const text = renderApiReference(openApiDocument(allRoutes, [], { title: "Workspace" }));

describe("docs/api.md", () => {
  it("has a section per operation of every route, with its access and body fields", () => {
    for (const route of allRoutes) expect(text, `${route.method} ${route.path}`).toContain(`### ${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}\n`);
    // Fields of a zod-validated body, with their constraints.
    const create = text.slice(text.indexOf("### POST /api/dashboard/collections\n"));
    expect(create).toContain("Requires: collections:write.");
    expect(create).toContain('| `access` | "public" \\| "private" \\| "gated" | no | default `"private"` |');
    expect(create).toContain("| `fields[].type` |");
    expect(text).toContain("| `limit` | query | no |");
  });

  it("renders JSON Schema types readably", () => {
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
    expect(typeOf({ type: "array", items: { enum: ["a", "b"] } })).toBe('array of "a" | "b"');
    expect(typeOf({})).toBe("any");
  });

  it("the committed docs/api.md is current (regenerate: SVC_UPDATE_DOCS=1 npx vitest run test/docs/api-reference.test.ts)", () => {
    if (process.env.SVC_UPDATE_DOCS === "1") writeFileSync(FILE, text);
    expect(readFileSync(FILE, "utf8")).toBe(text);
  });
});
