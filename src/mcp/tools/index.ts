/**
 * Every MCP tool, in the order tools/list sends them (DESIGN §4.3). docs/mcp.md's tool table is
 * generated from this list (src/mcp/docs.ts) and a test fails when it is stale.
 */
import type { McpTool } from "../tool.js";
import { contentReadTools } from "./content-read.js";
import { contentWriteTools } from "./content-write.js";
import { libraryTools } from "./library.js";

/**
 * The tools, each with its name, grant and agent-facing description.
 *
 * @example
 * mcpTools.find((t) => t.name === "list_items")?.grant; // "entries:read"
 */
export const mcpTools: readonly McpTool[] = Object.freeze([...contentReadTools, ...contentWriteTools, ...libraryTools]);
