/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document (checked by an OpenAPI validator) holding
 * every registered route with its method and declared access, the four bearer kinds, the shared
 * error and list shapes, and each visible collection's entry schema and delivery paths. Real
 * HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { allRoutes } from "../../src/http/routes/index.js";
import { TOKEN_PREFIXES } from "../../src/core/keys.js";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>; securitySchemes: Record<string, { scheme: string; description: string }> };
};

/** JSON bodies left as a described object, each with why: their fields are defined per resource at run time. */
const GENERIC_BODIES: Record<string, string> = {
  "POST /api/dashboard/collections/:name/entries": "the collection's own fields; each collection's schema is the Entry_<collection> component",
  "PATCH /api/dashboard/collections/:name/entries/:id": "a subset of the collection's own fields (Entry_<collection>)",
  "POST /api/v1/forms/:slug/submit": "the form's own fields, also sent url-encoded or multipart",
  "PATCH /api/dashboard/forms/:slug/submissions/:id": "values of the form's own fields",
  "POST /api/mcp": "a JSON-RPC message; the MCP tools and their inputs are in docs/mcp.md",
};

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, "{$1}");

describe.each(drivers)("OpenAPI document on %s", (driver) => {
  let s: Scenario;
  let owner: string;
  let workspaceId: string;

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    workspaceId = ws.id;
    owner = (await createTestSession(s.svc.context, ws.id)).token;
    const col = async (json: unknown) => (await s.as(owner).post("/api/dashboard/collections", json)).expectStatus(201);
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
    (await s.as(owner).post("/api/dashboard/collections/posts/entries", { title: "Hello", views: 3, _status: "published" })).expectStatus(201);
  });
  afterAll(() => s?.close());

  const read = async (token?: string): Promise<Doc> => {
    const res = (await s.as(token).get("/api/openapi.json")).expectStatus(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    return res.body as Doc;
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
    const refused = (await s.as(owner).post("/api/dashboard/collections", { name: "x", colour: "red" })).expectStatus(400);
    expect(typeof refused.body.error).toBe("string");
  });

  it("every JSON request body is a real schema, except the bodies whose fields a collection or form defines", async () => {
    const doc = await read();
    const generic: string[] = [];
    for (const route of allRoutes) {
      if (!route.body || (route.body.contentType ?? "application/json") !== "application/json") continue;
      const op = doc.paths[toOpenApiPath(route.path)]![route.method.toLowerCase()]!;
      type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[]; $ref?: string };
      const ref = (op.requestBody as { content: Record<string, { schema: Schema }> }).content["application/json"]!.schema;
      // A named body (a component) is read there; a union is real when each branch has fields.
      const schema = (ref.$ref ? doc.components.schemas[ref.$ref.split("/").pop()!] : ref) as Schema;
      const real = schema.properties ?? (schema.anyOf?.every((branch) => branch.properties) ? schema.anyOf : undefined);
      if (!route.body.schema || !real) generic.push(`${route.method} ${route.path}`);
    }
    expect(generic.sort()).toEqual(Object.keys(GENERIC_BODIES).sort());
  });

  it("key, member, end-user, webhook and rule bodies show their fields, and what they refuse is refused", async () => {
    const doc = await read();
    type Schema = { properties: Record<string, { type?: string; enum?: string[]; items?: { type?: string; enum?: string[] } }>; required?: string[]; additionalProperties?: boolean };
    const body = (path: string, method: string) =>
      (doc.paths[path]![method]!.requestBody as { content: Record<string, { schema: Schema }> }).content["application/json"]!.schema;
    const key = body("/api/dashboard/keys", "post");
    expect(Object.keys(key.properties)).toEqual(["name", "grants", "collections", "published_only"]);
    expect(key.required).toEqual(["name"]);
    expect(key.properties.grants!.items!.type).toBe("string");
    expect(key.additionalProperties).toBe(false);
    expect(body("/api/dashboard/members", "post").properties.role!.enum).toEqual(["owner", "member"]);
    expect(Object.keys(body("/api/dashboard/members/{id}", "patch").properties)).toEqual(["role", "grants"]);
    expect(body("/api/dashboard/users", "post").required!.sort()).toEqual(["email", "password"]);
    expect(body("/api/dashboard/users/{id}", "patch").required ?? []).toEqual([]);
    expect(body("/api/dashboard/users/{id}", "patch").properties.active!.type).toBe("boolean");
    const hook = body("/api/dashboard/webhooks", "post");
    expect(hook.required!.sort()).toEqual(["events", "url"]);
    expect(hook.properties.events!.items!.enum).toContain("content.published");
    expect(body("/api/dashboard/webhooks/{id}/settings", "put").properties.debounce_scope).toBeDefined();
    expect(body("/api/dashboard/rules", "post").required!.sort()).toEqual(["name"]);
    expect(body("/api/dashboard/identity", "put").properties.self_signup!.type).toBe("boolean");
    // The documented shape is the rule: a value of the wrong type is refused, naming the field.
    (await s.as(owner).post("/api/dashboard/webhooks", { url: "https://example.com/h", events: ["content.published"], active: "yes" }))
      .expectStatus(400)
      .expectBody({ error: "active must be true or false", field: "active" });
    (await s.as(owner).post("/api/dashboard/members", { email: "m@example.com", password: "correct horse battery", role: "admin" }))
      .expectStatus(400)
      .expectBody({ error: 'role must be owner or member, got "admin"', field: "role" });
  });

  it("the webhook response schema names exactly what the API answers: no secret, no header values", async () => {
    const doc = await read();
    const created = await s.as(owner).post("/api/dashboard/webhooks", { url: "https://example.com/hook", events: ["content.published"], headers: { Authorization: "Bearer s3cret" } });
    const record = created.expectStatus(201).body as Record<string, unknown>;
    const responses = doc.paths["/api/dashboard/webhooks"]!.post!.responses as Record<string, { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> }>;
    const named = responses["201"]!.content["application/json"]!.schema as unknown as { $ref: string };
    // Named in components (http/responses.ts), so every client refers to one Webhook.
    expect(named.$ref).toBe("#/components/schemas/Webhook");
    const schema = doc.components.schemas.Webhook as unknown as { properties: Record<string, unknown>; required: string[] };
    // Spec 4.3's record is what is always there; the opt-in options appear only when on.
    expect([...schema.required].sort()).toEqual(["active", "created_at", "events", "format", "header_names", "id", "url"]);
    expect(Object.keys(record).sort()).toEqual([...schema.required].sort());
    expect(Object.keys(schema.properties).filter((k) => !schema.required.includes(k)).sort()).toEqual(["log_deliveries", "standard_webhooks"]);
    expect(JSON.stringify(record)).not.toContain("s3cret");
    expect((doc.paths["/api/dashboard/webhooks/{id}/settings"]!.get!.responses as typeof responses)["200"]!.content["application/json"]!.schema).toMatchObject({
      $ref: "#/components/schemas/WebhookSettings",
    });
    const settings = doc.components.schemas.WebhookSettings as unknown as { required: string[] };
    expect([...settings.required].sort()).toEqual(["active", "debounce_ms", "debounce_scope", "secret"]);
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
    const delivered = (await s.get("/api/v1/posts")).expectStatus(200).body as { data: Record<string, unknown>[] };
    expect(delivered.data).toHaveLength(1);
    expect(Object.keys(delivered.data[0]!).sort()).toEqual(Object.keys(schema.properties!).sort());
    expect(schema.required!.sort()).toEqual(Object.keys(delivered.data[0]!).sort());
  });

  it("private collections appear only to a credential holding collections:read", async () => {
    expect((await read()).components.schemas.Entry_authors).toBeUndefined();
    expect((await read()).paths["/api/v1/authors"]).toBeUndefined();
    const reader = await createTestKey(s.svc.context, workspaceId, ["entries:read"]);
    const withKey = await read(reader.token);
    expect(withKey.components.schemas.Entry_authors).toBeDefined();
    expect(withKey.paths["/api/v1/authors"]!.get!.security).toEqual([{ apiKey: [] }]);
    expect((await read(owner)).components.schemas.Entry_authors).toBeDefined();
    const other = await createTestKey(s.svc.context, workspaceId, ["media:read"]);
    expect((await read(other.token)).components.schemas.Entry_authors).toBeUndefined();
  });

  it("an invalid credential is 401, an unknown host 404 Unknown tenant", async () => {
    expect(await s.as(`${TOKEN_PREFIXES.api_key}${"0".repeat(64)}`).get("/api/openapi.json")).toEqual({ status: 401, body: { error: "Unauthorized" } });
    expect(await s.get("/api/openapi.json", { host: "nowhere.localhost" })).toEqual({ status: 404, body: { error: "Unknown tenant" } });
  });
});
