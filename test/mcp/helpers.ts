/**
 * MCP test fixtures: a workspace on host 127.0.0.1 (the SDK client uses fetch, which cannot set
 * Host), a small content model, and SDK clients authenticated with a key.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import type { TestServer } from "../helpers/server.js";
import { createTestSession } from "../helpers/credentials.js";

export const MCP_HOST = "127.0.0.1";

/** Workspace `mcp` on 127.0.0.1 with a private `posts` collection holding one published entry and one draft. */
export async function seedWorkspace(t: TestServer) {
  const ws = await t.svc.context.workspaces.create({ slug: "mcp", hosts: [MCP_HOST] });
  const owner = await createTestSession(t.svc.context, ws.id);
  const call = async (path: string, json: unknown) => {
    const res = await t.request(path, { method: "POST", host: MCP_HOST, token: owner.token, json });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body as Record<string, unknown> & { id: string };
  };
  await call("/api/dashboard/collections", {
    name: "posts",
    access: "private",
    fields: [
      { name: "title", type: "string", required: true },
      { name: "views", type: "number" },
    ],
  });
  const published = await call("/api/dashboard/collections/posts/entries", { title: "Live", _status: "published" });
  const draft = await call("/api/dashboard/collections/posts/entries", { title: "Work in progress" });
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
