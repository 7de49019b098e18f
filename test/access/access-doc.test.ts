/**
 * docs/access.md's access table is generated from the route declarations; this test fails when
 * the copy in the document is stale. SVC_UPDATE_DOCS=1 rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractAccessTable, renderAccessTable, replaceAccessTable } from "../../src/http/access-table.js";
import { access } from "../../src/http/access.js";
import { allRoutes } from "../../src/http/routes/index.js";

const DOC = new URL("../../docs/access.md", import.meta.url);

describe("docs/access.md", () => {
  it("renders one row per route, sorted, with the declared access", () => {
    const table = renderAccessTable([
      { method: "POST", path: "/b", access: access.owner, summary: "x | y", handler: () => null },
      { method: "GET", path: "/b", access: access.grant("entries:read"), summary: "read", handler: () => null },
      { method: "GET", path: "/a", access: access.public, summary: "pub", handler: () => null },
    ]);
    expect(table).toBe(
      "| Method | Path | Requires | What |\n|---|---|---|---|\n| GET | `/a` | none | pub |\n| GET | `/b` | entries:read | read |\n| POST | `/b` | owner only | x \\| y |\n",
    );
  });

  it("holds the access table generated from allRoutes (regenerate: SVC_UPDATE_DOCS=1 npx vitest run test/access/access-doc.test.ts)", () => {
    const doc = readFileSync(DOC, "utf8");
    const table = renderAccessTable(allRoutes);
    if (process.env.SVC_UPDATE_DOCS === "1") writeFileSync(DOC, replaceAccessTable(doc, table));
    expect(extractAccessTable(readFileSync(DOC, "utf8"))).toBe(table);
  });

  it("lists every access-control route with its access", () => {
    const table = renderAccessTable(allRoutes);
    expect(table).toContain("| GET | `/api/dashboard/keys` | owner only |");
    expect(table).toContain("| POST | `/api/dashboard/login` | none |");
    expect(table).toContain("| GET | `/api/v1/accounts/me` | account session |");
  });
});
