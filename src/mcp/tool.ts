/**
 * The shape of one MCP tool (DESIGN §4.3): its name, the one grant it requires (spec 4.2, 5.4.1:
 * every tool, reads included, checks a specific grant), an agent-facing description that names
 * that grant, a zod input schema (published as JSON Schema in tools/list) and the function that
 * runs it against the same services as the HTTP API.
 */
import type { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Grant } from "../core/grants.js";
import type { Actor } from "../core/principal.js";
import type { McpCaller, ServiceContext } from "../services/context.js";

/** What a tool runs with: the service, the key's workspace, and the calling key. */
export interface ToolContext extends McpCaller {
  service: ServiceContext;
}

/**
 * The calling key as the actor services take, so its narrowing (core/key-scope.ts) applies to
 * every tool exactly as to the HTTP API.
 *
 * @example
 * await listCollections(ctx.service, ctx.workspaceId, keyActor(ctx));
 */
export function keyActor(ctx: ToolContext): Actor {
  return { kind: "key", workspaceId: ctx.workspaceId, ...ctx.key };
}

/** A JSON object result: sent as JSON text content and as structuredContent. */
export type ToolOutput = Record<string, unknown>;

/** One tool, as declared. */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  grant: Grant;
  /** One line for the tool table of docs/mcp.md. */
  summary: string;
  /** What tools/list sends: the agent-facing text, ending with the grant it requires. */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}

/**
 * Declares a tool; the description it publishes ends with the grant, so the grant is named in
 * one place (the `grant` field) and cannot drift from what the call-time check demands.
 *
 * @example
 * defineTool({ name: "list_media", grant: "media:read", summary: "…", description: "…", input: z.object({}),
 *   annotations: { readOnlyHint: true }, run: async (_args, ctx) => ({ data: [] }) });
 */
export function defineTool<S extends z.ZodObject>(tool: McpTool<S>): McpTool {
  const description = `${tool.description.trim()} Requires the ${tool.grant} grant on the API key; without it the call fails with "Missing grant: ${tool.grant}".`;
  return { ...tool, description } as unknown as McpTool;
}
