/**
 * The MCP endpoint (spec 4.2, DESIGN §4.3) over the official SDK: a web-standard streamable HTTP
 * transport in stateless mode (no session between requests) with JSON responses, and a fresh
 * server per request bound to the calling key. The SDK does all protocol framing.
 *
 * The tool handlers are registered on the SDK's `Server` rather than through `McpServer` because
 * the grant must be checked before anything else happens to a call (spec 5.4.1): McpServer
 * validates arguments before the handler runs, so a key without the grant would be told about its
 * arguments instead of the grant it lacks. Here the order is: tool exists → grant → arguments → run.
 * tools/list lists every tool whatever the key holds; each description names its grant.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { badRequest, missingGrant, type ServiceError } from "../core/errors.js";
import { hasGrant } from "../core/grants.js";
import { asServiceError } from "../core/error-mapping.js";
import type { McpTool, ToolContext, ToolOutput } from "./tool.js";
import { mcpTools } from "./tools/index.js";

const SERVER_INFO = { name: "contentsvc", title: "contentsvc workspace content", version: "1.0.0" };

const INSTRUCTIONS =
  "Tools over one contentsvc workspace (the host you connected to): collections and their entries (items), media, forms " +
  "and form submissions. Start with list_collections to learn the content model. Items include drafts, unless the key is limited to " +
  "published entries; a key limited to some collections sees only those. Each tool needs one grant on the API key; a call without it fails with \"Missing grant: <grant>\" and changes nothing.";

const byName = new Map(mcpTools.map((t) => [t.name, t]));
const listing: Tool[] = mcpTools.map(toListing);

/**
 * An MCP server for one request of one key: tools/list and tools/call.
 *
 * @example
 * const server = createMcpServer({ service, workspaceId, key: { id, grants } });
 */
export function createMcpServer(ctx: ToolContext): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(request.params.name, request.params.arguments, ctx));
  return server;
}

/**
 * Answers one HTTP request to /api/mcp (already authenticated) with a web Response.
 *
 * @example
 * return handleMcpRequest(event.req, { service, workspaceId: workspace.id, key });
 */
export async function handleMcpRequest(request: Request, ctx: ToolContext): Promise<Response> {
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: ctx.service.options.bodyLimit,
  });
  await server.connect(transport);
  try {
    // JSON response mode: the Response is complete when this resolves, so closing after is safe.
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/** One tools/call: unknown tool → protocol error; anything else → a result, `isError` on refusal. */
async function callTool(name: string, args: Record<string, unknown> | undefined, ctx: ToolContext): Promise<CallToolResult> {
  const tool = byName.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 64)}`);
  // spec 5.4.1/5.4.2: checked at call time against the key's grants, expanded (write ⇒ read, …).
  if (!hasGrant(ctx.key.grants, tool.grant)) return errorResult(missingGrant(tool.grant));
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(badRequest(`Invalid arguments for ${name}: ${describeIssues(parsed.error)}`));
  try {
    return okResult(await tool.run(parsed.data, ctx));
  } catch (error) {
    const { error: mapped, unexpected } = asServiceError(error);
    if (unexpected) ctx.service.logger.error(`MCP tool ${name} failed:`, error);
    return errorResult(mapped);
  }
}

function okResult(output: ToolOutput): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
}

/** The message as text (it names the grant, the field, …) and `{error, ...details}` as structured content. */
function errorResult(error: ServiceError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: error.message }], structuredContent: error.toJSON() };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

function toListing(tool: McpTool): Tool {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: inputSchema as Tool["inputSchema"],
    annotations: tool.annotations,
  };
}
