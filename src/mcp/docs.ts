/**
 * The tool table of docs/mcp.md, rendered from the tool declarations (mcpTools) so the document
 * cannot drift from what tools/list sends and what each call checks. A test fails when the
 * document's copy is stale (SVC_UPDATE_DOCS=1 rewrites it), as for docs/access.md.
 */
import { z } from "zod";
import type { McpTool } from "./tool.js";

/** Markers around the generated table in docs/mcp.md. */
export const TOOL_TABLE_BEGIN = "<!-- mcp-tools:begin (generated from mcpTools; do not edit by hand) -->";
export const TOOL_TABLE_END = "<!-- mcp-tools:end -->";

/**
 * A Markdown table, one row per tool in tools/list order: `| Tool | Grant | Arguments | What |`;
 * optional arguments carry a `?`.
 *
 * @example
 * renderToolTable(mcpTools); // "| Tool | Grant | Arguments | What |\n|---|---|---|---|\n| `list_collections` | collections:read | — | …"
 */
export function renderToolTable(tools: readonly McpTool[]): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.grant} | ${argumentsOf(t) || "—"} | ${cell(t.summary)} |`);
  return ["| Tool | Grant | Arguments | What |", "|---|---|---|---|", ...rows].join("\n") + "\n";
}

/** Replaces the table between the markers of `doc` (the whole document) with `table`. */
export function replaceToolTable(doc: string, table: string): string {
  const [start, end] = markers(doc);
  return `${doc.slice(0, start + TOOL_TABLE_BEGIN.length)}\n${table}${doc.slice(end)}`;
}

/** The table currently between the markers of `doc`. */
export function extractToolTable(doc: string): string {
  const [start, end] = markers(doc);
  return doc.slice(start + TOOL_TABLE_BEGIN.length + 1, end);
}

function argumentsOf(tool: McpTool): string {
  const schema = z.toJSONSchema(tool.input, { io: "input" }) as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .map((name) => `\`${name}${required.has(name) ? "" : "?"}\``)
    .join(", ");
}

function markers(doc: string): [number, number] {
  const start = doc.indexOf(TOOL_TABLE_BEGIN);
  const end = doc.indexOf(TOOL_TABLE_END);
  if (start < 0 || end < start) throw new Error("docs/mcp.md: mcp-tools markers not found");
  return [start, end];
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}
