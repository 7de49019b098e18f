/**
 * The response schemas of the OpenAPI document (http/responses.ts) name exactly what the routes
 * answer: one real call per route the dashboard uses, its body parsed with the schema the route
 * declares. The schemas are strict objects, so a key the server answers and the schema lacks
 * fails here, as does a missing or mistyped one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { allRoutes } from "../../src/http/routes/index.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite, siteFiles } from "../site/fixtures.js";

let t: TestServer;
let owner: string;

beforeAll(async () => {
  t = await startTestServer();
  const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
  owner = await dashboardToken(t.svc.context, ws.id, "owner");
});
afterAll(() => t?.close());

/** Calls `method path` as the owner and parses the answer with the route's declared schema. */
async function conforms(method: string, path: string, init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const route = allRoutes.find((r) => r.method === method && new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+")}$`).test(path.split("?")[0]!));
  const schema = route?.response?.schema as z.ZodType | undefined;
  expect(schema, `${method} ${path} declares a response schema`).toBeDefined();
  const res = await t.request(path, { method, token: owner, ...init });
  expect(res.status, `${method} ${path}: ${res.status}`).toBe(route!.response!.status ?? 200);
  const body = (await res.json()) as { data?: unknown[] };
  const items = route!.response!.list ? body.data! : [body];
  if (route!.response!.list) expect(items.length, `${method} ${path} lists something to check`).toBeGreaterThan(0);
  for (const item of items) {
    const parsed = schema!.safeParse(item);
    expect(parsed.success ? "" : `${method} ${path}: ${parsed.error.message}`).toBe("");
  }
  return (route!.response!.list ? items[0] : body) as Record<string, any>;
}

describe("response schemas match the answers", () => {
  it("session, collections and entries", async () => {
    const me = await conforms("GET", "/api/dashboard/me");
    expect(me.effective_grants).toHaveLength(16);
    const fields = [
      { name: "title", type: "string", required: true },
      { name: "next", type: "relation", collection: "posts" },
    ];
    await conforms("POST", "/api/dashboard/collections", { json: { name: "posts", fields, access: "public" } });
    await conforms("GET", "/api/dashboard/collections");
    await conforms("PATCH", "/api/dashboard/collections/posts", { json: { add: { name: "body", type: "text" } } });
    await conforms("PUT", "/api/dashboard/collections/posts", { json: { fields, access: "public" } });
    const entry = await conforms("POST", "/api/dashboard/collections/posts/entries", { json: { title: "Hello" } });
    await conforms("GET", "/api/dashboard/collections/posts/entries");
    const overview = await conforms("GET", "/api/dashboard/overview");
    expect(overview.recent[0]).toMatchObject({ collection: "posts", id: entry.id, label: "Hello" });
    await conforms("PATCH", `/api/dashboard/collections/posts/entries/${entry.id}`, { json: { _status: "published" } });
    await conforms("DELETE", `/api/dashboard/collections/posts/entries/${entry.id}`);
    await conforms("DELETE", "/api/dashboard/collections/posts");
  });

  it("keys and members", async () => {
    const key = await conforms("POST", "/api/dashboard/keys", { json: { name: "site", grants: ["entries:read"] } });
    await conforms("GET", "/api/dashboard/keys");
    await conforms("DELETE", `/api/dashboard/keys/${key.id}`);
    const member = await conforms("POST", "/api/dashboard/members", { json: { email: "m@example.com", password: "a long password 123", grants: ["media:read"] } });
    await conforms("GET", "/api/dashboard/members");
    await conforms("PATCH", `/api/dashboard/members/${member.id}`, { json: { grants: ["media:write"] } });
    const pair = await conforms("POST", "/api/dashboard/login", { json: { email: "m@example.com", password: "a long password 123" } });
    await conforms("POST", "/api/dashboard/refresh", { json: { refresh_token: pair.refresh_token } });
    await conforms("DELETE", `/api/dashboard/members/${member.id}`);
  });

  it("webhooks, their settings, secret rotation, test and deliveries", async () => {
    const hook = await conforms("POST", "/api/dashboard/webhooks", { json: { url: "https://example.invalid/h", events: ["content.published"], log_deliveries: true } });
    await conforms("GET", "/api/dashboard/webhooks");
    await conforms("PUT", `/api/dashboard/webhooks/${hook.id}/settings`, { json: { debounce_ms: 0 } });
    await conforms("POST", `/api/dashboard/webhooks/${hook.id}/rotate-secret`, { json: { window_seconds: 60 } });
    await conforms("GET", `/api/dashboard/webhooks/${hook.id}/settings`);
    await conforms("POST", `/api/dashboard/webhooks/${hook.id}/test`, { json: {} });
    const attempt = await conforms("GET", `/api/dashboard/webhooks/${hook.id}/deliveries`);
    await conforms("POST", `/api/dashboard/webhooks/${hook.id}/deliveries/${attempt.id}/redeliver`);
  });

  it("media, forms, submissions, rules, end users, identity and site deploys", async () => {
    const asset = await conforms("POST", "/api/dashboard/media?filename=a.txt", { body: "hello", headers: { "content-type": "text/plain" } });
    await conforms("GET", "/api/dashboard/media");
    await conforms("GET", `/api/v1/media/${asset.id}/meta`);
    const form = { name: "Contact", fields: [{ name: "email", type: "email", required: true }, { name: "kind", type: "select", options: ["a", "b"] }] };
    await conforms("POST", "/api/dashboard/forms", { json: { slug: "contact", ...form } });
    await conforms("GET", "/api/dashboard/forms");
    await conforms("PUT", "/api/dashboard/forms/contact", { json: { slug: "contact", ...form } });
    expect((await t.request("/api/v1/forms/contact/submit", { method: "POST", json: { email: "x@example.com", kind: "a" } })).status).toBe(201);
    const submission = await conforms("GET", "/api/dashboard/forms/contact/submissions");
    await conforms("PATCH", `/api/dashboard/forms/contact/submissions/${submission.id}`, { json: { kind: "b" } });
    const rule = await conforms("POST", "/api/dashboard/rules", { json: { name: "signed in", condition: { signed_in: true } } });
    await conforms("GET", "/api/dashboard/rules");
    await conforms("PUT", `/api/dashboard/rules/${rule.id}`, { json: { name: "anyone signed in", condition: { signed_in: true } } });
    const user = await conforms("POST", "/api/dashboard/users", { json: { email: "u@example.com", password: "a long password 123" } });
    await conforms("GET", "/api/dashboard/users");
    await conforms("PATCH", `/api/dashboard/users/${user.id}`, { json: { active: false } });
    await conforms("GET", "/api/dashboard/identity");
    await conforms("PUT", "/api/dashboard/identity", { json: { self_signup: false } });
    for (const version of ["1", "2"]) {
      await conforms("POST", "/api/dashboard/site/deploys", { body: (await packSite(siteFiles(version))) as BodyInit, headers: { "content-type": "application/gzip" } });
    }
    await conforms("GET", "/api/dashboard/site/deploys");
    await conforms("POST", "/api/dashboard/site/rollback", { json: {} });
  });
});
