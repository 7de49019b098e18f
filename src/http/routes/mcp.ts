/**
 * The agent endpoint /api/mcp (spec 4.2, DESIGN §4.3). `access.key`: any valid API key of the
 * workspace; a missing, malformed or unknown key, a dashboard token or an account session is
 * 401 `{"error":"Unauthorized"}` before any protocol handling (spec 5.2.2). Each tool then checks
 * its own grant at call time (src/mcp/server.ts, reached through `ServiceContext.mcp` because http
 * and mcp are sibling layers). See docs/mcp.md.
 */
import { access } from "../access.js";
import type { Principal } from "../../core/principal.js";
import { defineRoutes, type RouteContext } from "../route.js";

/**
 * Stateless streamable HTTP has no server-initiated stream (GET) and no session to end (DELETE):
 * 405, as the transport specification allows and the SDK's stateless examples answer.
 */
const methodNotAllowed = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; send POST" }, id: null }), {
    status: 405,
    headers: { allow: "POST", "content-type": "application/json" },
  });

const keyOf = (ctx: RouteContext) => ctx.principal as Extract<Principal, { kind: "key" }>;

export const mcpRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/mcp",
    access: access.key,
    summary: "MCP streamable HTTP (stateless, JSON responses); each tool checks its grant (docs/mcp.md)",
    body: { description: "A JSON-RPC message of the Model Context Protocol (streamable HTTP); tools and grants in docs/mcp.md" },
    response: { description: "The JSON-RPC answer" },
    handler: (event, ctx) => ctx.service.mcp(event.req, { workspaceId: ctx.workspace.id, key: keyOf(ctx) }),
  },
  {
    method: "GET",
    path: "/api/mcp",
    access: access.key,
    summary: "405: no server-initiated stream (stateless)",
    handler: methodNotAllowed,
  },
  {
    method: "DELETE",
    path: "/api/mcp",
    access: access.key,
    summary: "405: no session to end (stateless)",
    handler: methodNotAllowed,
  },
]);
