/**
 * One list shape (docs/api-conventions.md): every list route of allRoutes (a GET whose summary
 * starts with "List") and every MCP `list_*` tool answers `{data: [...], meta: {...}}` over real
 * HTTP: `meta` is `{total, limit, offset}` for a paginated list (plus `next` for entry lists) and `{total}` for a whole one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { allRoutes } from "../../src/http/routes/index.js";
import { mcpTools } from "../../src/mcp/tools/index.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type CallInit, type ServerScenario } from "../helpers/scenario.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";
import { packSite } from "../site/fixtures.js";

const HOST = MCP_HOST;
const PARAMS: Record<string, string> = { name: "posts", collection: "posts", slug: "contact" };
/** Lists that answer one page of a longer list (`?limit=&offset=`); the others answer whole. */
const PAGINATED = new Set([
  "/api/v1/:collection",
  "/api/dashboard/collections/:name/entries",
  "/api/dashboard/forms/:slug/submissions",
  "/api/dashboard/media",
  "/api/dashboard/site/deploys",
  "/api/dashboard/users",
]);
const PAGINATED_TOOLS = new Set(["list_items", "list_media", "list_submissions"]);
/** Entry lists also page by cursor: their meta adds `next` (null on the last page). */
const CURSOR = new Set(["/api/v1/:collection", "/api/dashboard/collections/:name/entries", "list_items"]);

const listRoutes = allRoutes.filter((r) => r.method === "GET" && r.summary.startsWith("List"));
const listTools = mcpTools.filter((t) => t.name.startsWith("list_"));

/** Lists the fixtures below fill; a list added later is checked for its shape even when empty. */
const FILLED = new Set([...PAGINATED, "/api/dashboard/collections", "/api/dashboard/forms", "/api/dashboard/rules", "/api/dashboard/keys", "/api/dashboard/members", "/api/dashboard/webhooks"]);

function expectListShape(body: any, paginated: boolean, where: string, filled = true, cursor = false) {
  expect(Object.keys(body).sort(), where).toEqual(["data", "meta"]);
  expect(Array.isArray(body.data), where).toBe(true);
  if (filled) expect(body.data.length, `${where}: the fixtures give this list at least one record`).toBeGreaterThan(0);
  if (paginated) expect(body.meta, where).toEqual({ total: body.data.length, limit: expect.any(Number), offset: 0, ...(cursor ? { next: null } : {}) });
  else expect(body.meta, where).toEqual({ total: body.data.length });
}

describe("the list routes are known", () => {
  it("every list route is classified, and each paginated one exists", () => {
    expect(listRoutes.length).toBeGreaterThanOrEqual(12);
    const paths = new Set(listRoutes.map((r) => r.path));
    for (const path of PAGINATED) expect(paths.has(path), path).toBe(true);
    expect(listTools.map((t) => t.name).sort()).toEqual(["list_collections", "list_forms", "list_items", "list_media", "list_submissions"]);
  });
});

describe.each(drivers)("one list shape on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let client: Client;

  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true });
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "lists", hosts: [HOST], identity: true });
    owner = s.as(await dashboardToken(ctx, ws.id), { host: HOST });
    const key = await apiKey(ctx, ws.id, [...ALL_GRANTS]);
    /** A fixture record made by the owner: JSON, or raw bytes when `init.body` is given. */
    const post = async (path: string, json: unknown, init?: CallInit) => {
      const res = await owner.post(path, json, init);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    };
    await post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] });
    await post("/api/dashboard/collections/posts/entries", { title: "Hello", _status: "published" });
    await post("/api/dashboard/forms", { slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }] });
    (await s.post("/api/v1/forms/contact/submit", { email: "ada@example.com" }, { host: HOST })).expectStatus(201);
    await post("/api/dashboard/rules", { name: "signed in", condition: { signed_in: true } });
    await post("/api/dashboard/webhooks", { url: "https://127.0.0.1:9/hook", events: ["content.created"] });
    await post("/api/dashboard/users", { email: "reader@example.com", password: "correct horse battery staple" });
    await post("/api/dashboard/media?filename=a.txt", undefined, { body: "hello", headers: { "content-type": "text/plain" } });
    await post("/api/dashboard/site/deploys", undefined, { body: (await packSite({ "index.html": "<h1>hi</h1>" })) as BodyInit, headers: { "content-type": "application/gzip" } });
    client = await connectClient(s.t, key);
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it.each(listRoutes.map((r) => [r.path, r] as const))("GET %s answers {data, meta}", async (path) => {
    const url = path.replace(/:(\w+)/g, (_, name: string) => PARAMS[name]!);
    const res = (await (path.startsWith("/api/v1/") ? s.as(undefined, { host: HOST }) : owner).get(url)).expectStatus(200);
    expectListShape(res.body, PAGINATED.has(path), path, FILLED.has(path), CURSOR.has(path));
  });

  it.each(listTools.map((tool) => [tool.name] as const))("MCP %s answers {data, meta}", async (name) => {
    const args = name === "list_items" ? { collection: "posts" } : name === "list_submissions" ? { form: "contact" } : {};
    const result = await callTool(client, name, args);
    expect(result.isError, result.text).toBe(false);
    expectListShape(result.json, PAGINATED_TOOLS.has(name), name, true, CURSOR.has(name));
    expect(result.structured).toEqual(result.json);
  });
});
