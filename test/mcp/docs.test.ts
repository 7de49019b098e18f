/**
 * docs/mcp.md's tool table is generated from mcpTools; this test fails when the document's copy
 * is stale. SVC_UPDATE_DOCS=1 rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractToolTable, renderToolTable, replaceToolTable } from "../../src/mcp/docs.js";
import { mcpTools } from "../../src/mcp/tools/index.js";

const DOC = new URL("../../docs/mcp.md", import.meta.url);

describe("docs/mcp.md", () => {
  it("holds the tool table generated from mcpTools (regenerate: SVC_UPDATE_DOCS=1 npx vitest run test/mcp/docs.test.ts)", () => {
    const table = renderToolTable(mcpTools);
    if (process.env.SVC_UPDATE_DOCS === "1") writeFileSync(DOC, replaceToolTable(readFileSync(DOC, "utf8"), table));
    expect(extractToolTable(readFileSync(DOC, "utf8"))).toBe(table);
  });

  it("names every tool with its grant and arguments (DESIGN §4.3)", () => {
    const table = renderToolTable(mcpTools);
    expect(table).toContain("| `list_items` | entries:read | `collection`, `status?`, `limit?`, `offset?`, `after?`, `sort?`, `fields?`, `expand?`, `filter?` |");
    expect(table).toContain("| `create_item` | entries:write | `collection`, `fields`, `status?` |");
    expect(table).toContain("| `list_submissions` | submissions:read |");
    expect(table.trim().split("\n")).toHaveLength(2 + 12);
  });

  it("every tool's description names its grant", () => {
    for (const tool of mcpTools) expect(tool.description, tool.name).toContain(tool.grant);
  });
});
