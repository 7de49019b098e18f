/**
 * MCP test fixtures: a workspace on host 127.0.0.1 (the SDK client uses fetch, which cannot set
 * Host), a small content model, and SDK clients authenticated with a key.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Scenario } from "../helpers/scenario.js";
import type { TestServer } from "../helpers/server.js";
import { createTestSession } from "../helpers/credentials.js";

export const MCP_HOST = "127.0.0.1";

/** Workspace `mcp` on 127.0.0.1 with a private `posts` collection holding one published entry and one draft. */
export async function seedWorkspace(s: Scenario) {
  const ws = await s.svc.context.workspaces.create({ slug: "mcp", hosts: [MCP_HOST] });
  const owner = await createTestSession(s.svc.context, ws.id);
  const create = async (path: string, json: unknown) =>
    (await s.as(owner.token, { host: MCP_HOST }).post(path, json)).expectStatus(201).body as Record<string, unknown> & { id: string };
  await create("/api/dashboard/collections", {
    name: "posts",
    access: "private",
    fields: [
      { name: "title", type: "string", required: true },
      { name: "views", type: "number" },
    ],
  });
  const published = await create("/api/dashboard/collections/posts/entries", { title: "Live", _status: "published" });
  const draft = await create("/api/dashboard/collections/posts/entries", { title: "Work in progress" });
  return { ws, owner, published, draft };
}

/** An SDK client over real HTTP; `token` goes into `Authorization: Bearer`. */
export async function connectClient(t: TestServer, token: string): Promise<Client> {
  const client = new Client({ name: "contentsvc-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://${MCP_HOST}:${t.port}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool; returns the result with its JSON text parsed. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json, structured: result.structuredContent as any };
}
