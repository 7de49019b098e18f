/**
 * dashboard/src/api-types.ts is generated from the server's OpenAPI document: this test builds it
 * again in memory and fails when the committed copy is stale (a route's body or answer changed).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiDocument } from "../../scripts/api-document.js";
import { API_TYPES_FILE, renderApiTypes } from "../../scripts/generate-api-types.mjs";

describe("dashboard/src/api-types.ts", () => {
  it("is what the server's OpenAPI document generates (else: run npm run generate:types)", async () => {
    const generated: string = await renderApiTypes(apiDocument());
    expect(generated).toContain('effective_grants: components["schemas"]["Grant"][]');
    const committed = readFileSync(API_TYPES_FILE, "utf8");
    expect(committed === generated, "dashboard/src/api-types.ts is stale: run npm run generate:types").toBe(true);
  });

  it("fails on a stale copy: a changed answer changes the file", async () => {
    const document = apiDocument() as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    document.components.schemas.Me!.properties.extra = { type: "string" };
    expect(await renderApiTypes(document)).not.toBe(readFileSync(API_TYPES_FILE, "utf8"));
  });
});
