/**
 * /api/mcp with the official SDK client over real HTTP (spec 4.2, 5.2, 5.4.1; DESIGN §4.3):
 * authentication before any protocol handling, tools/list, reads including drafts, writes firing
 * the same events as the HTTP API, and the grant each tool demands at call time. Both drivers.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Grant } from "../../src/core/grants.js";
import { mcpTools } from "../../src/mcp/tools/index.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { callTool, connectClient, MCP_HOST, seedWorkspace } from "./helpers.js";

const TOOL_NAMES = [
  "list_collections",
  "get_collection",
  "list_items",
  "get_item",
  "create_item",
  "update_item",
  "publish_item",
  "unpublish_item",
  "delete_item",
  "list_media",
  "list_forms",
  "list_submissions",
];

describe.each(drivers)("MCP endpoint on %s", (driver) => {
  let s: ServerScenario;
  let seed: Awaited<ReturnType<typeof seedWorkspace>>;
  const clients: Client[] = [];
  const client = async (grants: Grant[]) => {
    const key = await createTestKey(s.svc.context, seed.ws.id, grants);
    const c = await connectClient(s.t, key.token);
    clients.push(c);
    return { c, key };
  };
  /** A raw JSON-RPC tools/list, its credentials in `headers`. */
  const listTools = (headers: Record<string, string>) =>
    s.post("/api/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { host: MCP_HOST, headers: { accept: "application/json, text/event-stream", ...headers } });

  beforeAll(async () => {
    s = await scenario(driver);
    seed = await seedWorkspace(s);
  });
  beforeEach(() => s.clearEvents());
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s?.close();
  });

  it("initializes: server info, tools capability, instructions", async () => {
    const { c } = await client(["entries:read"]);
    expect(c.getServerVersion()?.name).toBe("contentsvc");
    expect(c.getServerCapabilities()?.tools).toBeDefined();
    expect(c.getInstructions()).toContain("Missing grant");
  });

  it("lists all 12 tools whatever the key holds; each description names its grant", async () => {
    const { c } = await client([]);
    const { tools } = await c.listTools();
    expect(tools.map((x) => x.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      const grant = mcpTools.find((m) => m.name === tool.name)!.grant;
      expect(tool.description, tool.name).toContain(grant);
      expect(tool.inputSchema.type).toBe("object");
    }
    expect(tools.find((x) => x.name === "list_items")!.inputSchema.required).toEqual(["collection"]);
  });

  it("list_items returns drafts and published entries, paginated and filterable by status", async () => {
    const { c } = await client(["entries:read"]);
    const all = await callTool(c, "list_items", { collection: "posts" });
    expect(all.isError, all.text).toBe(false);
    expect(all.json.meta).toEqual({ total: 2, limit: 20, offset: 0, next: null });
    expect(all.json.data.map((e: any) => e._status).sort()).toEqual(["draft", "published"]);
    expect(all.structured).toEqual(all.json);
    const drafts = await callTool(c, "list_items", { collection: "posts", status: "draft" });
    expect(drafts.json.data.map((e: any) => e.id)).toEqual([seed.draft.id]);
    const page = await callTool(c, "list_items", { collection: "posts", limit: 1, offset: 1 });
    expect(page.json.meta).toEqual({ total: 2, limit: 1, offset: 1, next: null });
    expect(page.json.data).toHaveLength(1);
  });

  it("get_item returns a draft; unknown ids and collections are tool errors", async () => {
    const { c } = await client(["entries:read"]);
    const got = await callTool(c, "get_item", { collection: "posts", id: seed.draft.id });
    expect(got.json).toMatchObject({ id: seed.draft.id, title: "Work in progress", _status: "draft" });
    expect(await callTool(c, "get_item", { collection: "posts", id: "00000000-0000-4000-8000-000000000000" })).toMatchObject({
      isError: true,
      text: "Entry not found",
    });
    expect(await callTool(c, "get_item", { collection: "nope", id: seed.draft.id })).toMatchObject({ isError: true, text: "Unknown collection: nope" });
  });

  it("create_item goes through the one write path: content.created on the bus, _created_by = the key", async () => {
    const { c, key } = await client(["entries:write"]);
    const created = await callTool(c, "create_item", { collection: "posts", fields: { title: "From an agent", views: 3 } });
    expect(created.isError, created.text).toBe(false);
    expect(created.json).toMatchObject({ title: "From an agent", views: 3, _status: "draft", _created_by: key.id });
    const [fired] = s.expectEvents(["content.created"]);
    expect(fired).toMatchObject({ workspaceId: seed.ws.id, data: { collection: "posts", entry: { id: created.json.id } } });
  });

  it("publish_item fires content.published (once); unpublish, update and delete fire theirs", async () => {
    const { c } = await client(["entries:write"]);
    const { json: entry } = await callTool(c, "create_item", { collection: "posts", fields: { title: "Lifecycle" } });
    const id = entry.id as string;
    s.clearEvents();
    const published = await callTool(c, "publish_item", { collection: "posts", id });
    expect(published.json._status).toBe("published");
    s.expectEvents(["content.published"]);
    await callTool(c, "publish_item", { collection: "posts", id });
    s.expectEvents([]); // already published: nothing written
    await callTool(c, "update_item", { collection: "posts", id, fields: { views: 9 } });
    await callTool(c, "unpublish_item", { collection: "posts", id });
    const deleted = await callTool(c, "delete_item", { collection: "posts", id });
    expect(deleted.json).toMatchObject({ id, views: 9, _status: "draft" });
    s.expectEvents(["content.updated", "content.unpublished", "content.deleted"]);
  });

  it("validates writes like the HTTP API (message names the field) and fires nothing", async () => {
    const { c } = await client(["entries:write"]);
    const missing = await callTool(c, "create_item", { collection: "posts", fields: { views: 1 } });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.text).toContain("title");
    const wrongType = await callTool(c, "update_item", { collection: "posts", id: seed.draft.id, fields: { views: "many" } });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toContain("views");
    const badArgs = await callTool(c, "update_item", { collection: "posts", id: seed.draft.id, data: { title: "x" } });
    expect(badArgs.isError).toBe(true);
    expect(badArgs.text).toMatch(/Invalid arguments for update_item: .*data/);
    s.expectEvents([]);
  });

  it("a key without entries:read is refused with the grant named, before its arguments are looked at", async () => {
    const { c } = await client(["media:read"]);
    const refused = await callTool(c, "list_items", { collection: "posts" });
    expect(refused).toMatchObject({ isError: true, text: "Missing grant: entries:read", structured: { error: "Missing grant: entries:read", grant: "entries:read" } });
    expect(await callTool(c, "get_item", {})).toMatchObject({ isError: true, text: "Missing grant: entries:read" });
    expect((await callTool(c, "list_media")).isError).toBe(false);
  });

  it("a key with no grants authenticates and every tool refuses, naming its grant", async () => {
    const { c } = await client([]);
    for (const tool of mcpTools) {
      const result = await callTool(c, tool.name, { collection: "posts", id: seed.draft.id, fields: { title: "x" }, form: "f", name: "posts" });
      expect(result, tool.name).toMatchObject({ isError: true, text: `Missing grant: ${tool.grant}` });
    }
    s.expectEvents([]);
  });

  it("grant implications apply (spec 5.4.2): entries:write reads items and collections, not media", async () => {
    const { c } = await client(["entries:write"]);
    expect((await callTool(c, "list_items", { collection: "posts" })).json.meta.total).toBeGreaterThanOrEqual(2);
    const cols = await callTool(c, "list_collections");
    expect(cols.json.data.map((x: any) => x.name)).toEqual(["posts"]);
    expect(await callTool(c, "list_media")).toMatchObject({ isError: true, text: "Missing grant: media:read" });
    const subs = await client(["submissions:read"]);
    expect((await callTool(subs.c, "list_forms")).isError).toBe(false);
  });

  it("list_forms, list_submissions and list_media read their tables", async () => {
    const now = new Date().toISOString();
    await s.svc.context.sql.run("INSERT INTO forms (id, workspace_id, slug, name, fields, honeypot, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
      "7d3f3c1e-0000-4000-8000-000000000001",
      seed.ws.id,
      "contact",
      "Contact",
      JSON.stringify([{ name: "email", type: "email", required: true }]),
      "_gotcha",
      now,
      now,
    ]);
    await s.svc.context.sql.run("INSERT INTO submissions (id, workspace_id, form_id, data, files, submitted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
      "7d3f3c1e-0000-4000-8000-000000000002",
      seed.ws.id,
      "7d3f3c1e-0000-4000-8000-000000000001",
      JSON.stringify({ email: "a@example.com" }),
      "[]",
      now,
      now,
    ]);
    const { c } = await client(["forms:read", "submissions:read", "media:read"]);
    expect((await callTool(c, "list_forms")).json.data).toMatchObject([{ slug: "contact", fields: [{ name: "email" }] }]);
    const subs = await callTool(c, "list_submissions", { form: "contact" });
    expect(subs.json).toMatchObject({ data: [{ form_id: "7d3f3c1e-0000-4000-8000-000000000001", data: { email: "a@example.com" } }], meta: { total: 1, limit: 50, offset: 0 } });
    expect(await callTool(c, "list_submissions", { form: "nope" })).toMatchObject({ isError: true, text: "Unknown form: nope" });
    expect((await callTool(c, "list_media")).json).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0 } });
    const formsOnly = await client(["forms:write"]);
    expect(await callTool(formsOnly.c, "list_submissions", { form: "contact" })).toMatchObject({ isError: true, text: "Missing grant: submissions:read" });
  });

  describe("authentication, before any protocol handling (spec 5.2.2)", () => {
    const cases: [string, () => Promise<Record<string, string>>][] = [
      ["no Authorization header", async () => ({})],
      ["a malformed header", async () => ({ authorization: "Basic abc" })],
      ["an unknown key", async () => ({ authorization: `Bearer pk_${"0".repeat(64)}` })],
      ["an owner's dashboard token", async () => ({ authorization: `Bearer ${seed.owner.token}` })],
      ["a member's dashboard token", async () => ({ authorization: `Bearer ${(await createTestSession(s.svc.context, seed.ws.id, { role: "member", grants: ["entries:read"] })).token}` })],
      [
        "a key of another workspace",
        async () => {
          const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
          return { authorization: `Bearer ${(await createTestKey(s.svc.context, other.id, ["entries:read"])).token}` };
        },
      ],
    ];
    it.each(cases)("%s → 401 {error: Unauthorized}", async (_name, headers) => {
      expect(await listTools(await headers())).toEqual({ status: 401, body: { error: "Unauthorized" } });
    });

    it("the SDK client without a valid key fails to connect", async () => {
      await expect(connectClient(s.t, "pk_nope")).rejects.toThrow();
    });

    it("GET and DELETE answer 405 to a valid key (stateless: no stream, no session); 401 without one", async () => {
      const key = await createTestKey(s.svc.context, seed.ws.id, ["entries:read"]);
      for (const method of ["GET", "DELETE"]) {
        const ok = (await s.as(key.token).send(method, "/api/mcp", undefined, { host: MCP_HOST, headers: { accept: "text/event-stream" } })).expectStatus(405);
        expect(ok.headers.get("allow")).toBe("POST");
        (await s.send(method, "/api/mcp", undefined, { host: MCP_HOST })).expectStatus(401);
      }
    });
  });
});
