/**
 * The access table of docs/access.md, rendered from the route declarations themselves (STYLE:
 * "each route declares its grant next to its path; the table is documented from that place").
 * A test fails when the document's copy is stale.
 */
import { describeAccess } from "./access.js";
import type { RouteDef } from "./route.js";

/** Markers around the generated table in docs/access.md. */
export const ACCESS_TABLE_BEGIN = "<!-- access-table:begin (generated from allRoutes; do not edit by hand) -->";
export const ACCESS_TABLE_END = "<!-- access-table:end -->";

/**
 * A Markdown table, one row per route, sorted by path then method: `| Method | Path | Requires | What |`.
 *
 * @example
 * renderAccessTable(allRoutes); // "| Method | Path | Requires | What |\n|---|---|---|---|\n| GET | …"
 */
export function renderAccessTable(routes: readonly RouteDef[]): string {
  const order = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const rows = [...routes]
    .sort((a, b) => a.path.localeCompare(b.path) || order.indexOf(a.method) - order.indexOf(b.method))
    .map((r) => `| ${r.method} | \`${r.path}\` | ${cell(describeAccess(r.access))} | ${cell(r.summary)} |`);
  return ["| Method | Path | Requires | What |", "|---|---|---|---|", ...rows].join("\n") + "\n";
}

/** Replaces the table between the markers of `doc` (the whole document) with `table`. */
export function replaceAccessTable(doc: string, table: string): string {
  const start = doc.indexOf(ACCESS_TABLE_BEGIN);
  const end = doc.indexOf(ACCESS_TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/access.md: access-table markers not found");
  return `${doc.slice(0, start + ACCESS_TABLE_BEGIN.length)}\n${table}${doc.slice(end)}`;
}

/** The table currently between the markers of `doc`. */
export function extractAccessTable(doc: string): string {
  const start = doc.indexOf(ACCESS_TABLE_BEGIN);
  const end = doc.indexOf(ACCESS_TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/access.md: access-table markers not found");
  return doc.slice(start + ACCESS_TABLE_BEGIN.length + 1, end);
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}
