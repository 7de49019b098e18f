/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by an OpenAPI validator) holding
 * every registered route with its method and declared access, the four bearer kinds, the shared
 * error and list shapes, and each visible collection's entry schema and delivery paths. Real
 * HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { allRoutes } from "../../src/http/routes/index.js";
import { TOKEN_PREFIXES } from "../../src/core/keys.js";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>; securitySchemes: Record<string, { scheme: string; description: string }> };
};

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, "{$1}");

describe.each(drivers)("OpenAPI document on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestServer(driver);
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    workspaceId = ws.id;
    owner = (await createTestSession(t.svc.context, ws.id)).token;
    const col = async (json: unknown) => expect((await t.request("/api/dashboard/collections", { method: "POST", json, token: owner })).status).toBe(201);
    await col({ name: "authors", access: "private", fields: [{ name: "name", type: "string", required: true }] });
    await col({
      name: "posts",
      access: "public",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "views", type: "number" },
        { name: "when", type: "datetime" },
        { name: "author", type: "relation", collection: "authors" },
      ],
    });
    const entry = await t.request("/api/dashboard/collections/posts/entries", { method: "POST", json: { title: "Hello", views: 3, _status: "published" }, token: owner });
    expect(entry.status).toBe(201);
  });
  afterAll(() => t?.close());

  const read = async (token?: string): Promise<Doc> => {
    const res = await t.request("/api/openapi.json", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    return (await res.json()) as Doc;
  };

  it("is a valid OpenAPI 3.1 document, served without a credential", async () => {
    const doc = await read();
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("a document without its info object is refused by the same validator (the check can fail)", async () => {
    const doc = structuredClone(await read()) as Doc & { info?: unknown };
    delete doc.info;
    expect((await new Validator().validate(doc as never)).valid).toBe(false);
  });

  it("holds every registered route with its method, and the route's access as x-contentsvc-access", async () => {
    const doc = await read();
    expect(allRoutes.length).toBeGreaterThan(50);
    for (const route of allRoutes) {
      const op = doc.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op!["x-contentsvc-access"], `${route.method} ${route.path}`).toEqual(route.access);
      expect(op!.summary).toBe(route.summary);
    }
    expect(doc.paths["/api/dashboard/collections/{name}/entries/{id}"]!.patch!["x-contentsvc-access"]).toEqual({ kind: "grant", grant: "entries:write" });
    expect(doc.paths["/api/dashboard/webhooks"]!.post!.security).toEqual([{ dashboardSession: [] }]);
    expect(doc.paths["/api/v1/forms/{slug}"]!.get!.security).toEqual([]);
    expect(doc.paths["/api/mcp"]!.post!.security).toEqual([{ apiKey: [] }]);
  });

  it("describes the four bearer kinds by their prefixes", async () => {
    const schemes = (await read()).components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(["accountSession", "apiKey", "dashboardRefresh", "dashboardSession"]);
    for (const s of Object.values(schemes)) expect(s.scheme).toBe("bearer");
    expect(schemes.apiKey!.description).toContain(TOKEN_PREFIXES.api_key);
    expect(schemes.dashboardSession!.description).toContain(TOKEN_PREFIXES.dashboard_access);
    expect(schemes.dashboardRefresh!.description).toContain(TOKEN_PREFIXES.dashboard_refresh);
    expect(schemes.accountSession!.description).toContain(TOKEN_PREFIXES.account_session);
  });

  it("request bodies come from the zod schemas the routes validate with", async () => {
    const doc = await read();
    const body = (path: string, method: string) =>
      (doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: { properties: Record<string, { enum?: string[] }>; required: string[] } }> }).content[
        "application/json"
      ]!.schema;
    const collection = body("/api/dashboard/collections", "post");
    expect(collection.required).toEqual(["name"]);
    expect(collection.properties.access!.enum).toEqual(["public", "private", "gated"]);
    const form = body("/api/dashboard/forms/{slug}", "put");
    expect(Object.keys(form.properties).sort()).toEqual(["fields", "honeypot", "name", "slug"]);
    // What the schema says is refused is refused by the server: an unknown key (additionalProperties: false).
    const refused = await t.request("/api/dashboard/collections", { method: "POST", json: { name: "x", colour: "red" }, token: owner });
    expect(refused.status).toBe(400);
    const error = (await refused.json()) as Record<string, unknown>;
    expect(typeof error.error).toBe("string");
  });

  it("lists answer {data, meta}, errors the shared Error component", async () => {
    const doc = await read();
    const ok = (path: string, status = "200") =>
      (doc.paths[path]!.get!.responses as Record<string, { content?: Record<string, { schema: { properties: Record<string, unknown> } }>; $ref?: string }>)[status];
    expect(Object.keys(ok("/api/dashboard/collections")!.content!["application/json"]!.schema.properties)).toEqual(["data", "meta"]);
    expect(ok("/api/dashboard/collections")!.content!["application/json"]!.schema.properties.meta).toEqual({ $ref: "#/components/schemas/WholeListMeta" });
    expect(ok("/api/dashboard/media")!.content!["application/json"]!.schema.properties.meta).toEqual({ $ref: "#/components/schemas/PageMeta" });
    expect(ok("/api/dashboard/media", "4XX")!.$ref).toBe("#/components/responses/Error");
    expect(doc.components.schemas.Error!.required).toEqual(["error"]);
  });

  it("each public collection has its entry schema and delivery paths; its schema names what delivery answers", async () => {
    const doc = await read();
    const schema = doc.components.schemas.Entry_posts!;
    expect(doc.paths["/api/v1/posts"]!.get!.security).toEqual([]);
    expect(doc.paths["/api/v1/posts/{id}"]!.get).toBeDefined();
    const delivered = (await (await t.request("/api/v1/posts")).json()) as { data: Record<string, unknown>[] };
    expect(delivered.data).toHaveLength(1);
    expect(Object.keys(delivered.data[0]!).sort()).toEqual(Object.keys(schema.properties!).sort());
    expect(schema.required!.sort()).toEqual(Object.keys(delivered.data[0]!).sort());
  });

  it("private collections appear only to a credential holding collections:read", async () => {
    expect((await read()).components.schemas.Entry_authors).toBeUndefined();
    expect((await read()).paths["/api/v1/authors"]).toBeUndefined();
    const reader = await createTestKey(t.svc.context, workspaceId, ["entries:read"]);
    const withKey = await read(reader.token);
    expect(withKey.components.schemas.Entry_authors).toBeDefined();
    expect(withKey.paths["/api/v1/authors"]!.get!.security).toEqual([{ apiKey: [] }]);
    expect((await read(owner)).components.schemas.Entry_authors).toBeDefined();
    const other = await createTestKey(t.svc.context, workspaceId, ["media:read"]);
    expect((await read(other.token)).components.schemas.Entry_authors).toBeUndefined();
  });

  it("an invalid credential is 401, an unknown host 404 Unknown tenant", async () => {
    const bad = await t.request("/api/openapi.json", { token: `${TOKEN_PREFIXES.api_key}${"0".repeat(64)}` });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "Unauthorized" });
    const unknown = await t.request("/api/openapi.json", { host: "nowhere.localhost" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Unknown tenant" });
  });
});
