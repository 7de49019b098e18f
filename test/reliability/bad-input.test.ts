/**
 * No input crashes a route or changes data it should not: every route of allRoutes, attacked with
 * the corpus (test/reliability/corpus.ts): each request gets a 4xx with a clear `error` (never a
 * 5xx) and the database is unchanged after the whole run. Real HTTP, both drivers, a small body and
 * upload limit so 413 is cheap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { allRoutes } from "../../src/http/routes/index.js";
import type { RouteDef } from "../../src/http/route.js";
import { createTestAccount } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type Result, type ServerScenario } from "../helpers/scenario.js";
import { dropMail } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { bodyCases, CONTACT, EXEMPT, PARAM_VALUES, PASSWORD, POSTS, QUERIES, RAW_CASES, routeKey, takesBody, TEMPLATES, type BadRequest } from "./corpus.js";
import { counts, dumpDatabase } from "./snapshot.js";

const BODY_LIMIT = 16 * 1024;
const UPLOAD_LIMIT = 64 * 1024;

describe("the corpus covers every route", () => {
  it("every body-taking route has a template, raw cases or an exemption with a reason", () => {
    const missing = allRoutes.filter(takesBody).map(routeKey).filter((k) => !TEMPLATES[k] && !RAW_CASES[k] && !EXEMPT[k]);
    expect(missing, "add these routes to test/reliability/corpus.ts").toEqual([]);
    for (const reason of Object.values(EXEMPT)) expect(reason.length).toBeGreaterThan(20);
    const known = new Set(allRoutes.map(routeKey));
    const stale = [...Object.keys(TEMPLATES), ...Object.keys(RAW_CASES), ...Object.keys(EXEMPT)].filter((k) => !known.has(k));
    expect(stale, "corpus entries for routes that no longer exist").toEqual([]);
  });
});

describe.each(drivers)("bad input on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let key: Caller;
  let account: Caller;
  const ids: Record<string, string> = {};
  let client = 0;
  const tried = { requests: 0 };

  const send = (method: string, path: string, c: BadRequest = { name: "plain" }, as = owner) => {
    const headers: Record<string, string> = { "x-forwarded-for": `198.51.100.${++client % 250}`, accept: "application/json, text/event-stream", ...c.headers };
    if (c.body !== undefined) headers["content-type"] = c.contentType ?? "application/json";
    const url = c.query ? `${path}${path.includes("?") ? "&" : "?"}${c.query}` : path;
    tried.requests++;
    return as.send(method, url, undefined, { headers, body: c.body as BodyInit | undefined });
  };
  /** A setup step that must succeed; answers the body. */
  const ok = async (method: string, path: string, json: unknown, as = owner) => {
    const res = await as.send(method, path, json);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    s = await scenario(driver, { sendMail: dropMail, bodyLimit: BODY_LIMIT, uploadLimit: UPLOAD_LIMIT, trustProxy: true, allowPrivateWebhookTargets: true });
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true });
    owner = s.as(await dashboardToken(ctx, ws.id));
    key = s.as(await apiKey(ctx, ws.id, [...ALL_GRANTS]));
    account = s.as((await createTestAccount(ctx, ws.id)).token);
    await ok("POST", "/api/dashboard/collections", POSTS);
    ids.entry = (await ok("POST", "/api/dashboard/collections/posts/entries", { title: "first", _status: "published" })).id;
    ids.rule = (await ok("POST", "/api/dashboard/rules", { name: "r1", condition: { signed_in: true } })).id;
    await ok("POST", "/api/dashboard/forms", CONTACT);
    ids.submission = (await ok("POST", "/api/v1/forms/contact/submit", { email: "v@example.com", message: "hello" }, s)).id;
    ids.user = (await ok("POST", "/api/dashboard/users", { email: "u1@example.com", password: PASSWORD })).id;
    ids.member = (await ok("POST", "/api/dashboard/members", { email: "m1@example.com", password: PASSWORD, role: "member", grants: [] })).id;
    ids.key = (await ok("POST", "/api/dashboard/keys", { name: "k1", grants: ["entries:read"] })).id;
    ids.webhook = (await ok("POST", "/api/dashboard/webhooks", { url: "https://127.0.0.1:9/hook", events: ["content.created"] })).id;
    const media = await owner.post("/api/dashboard/media?filename=a.txt", undefined, { headers: { "content-type": "text/plain" }, body: "hello" });
    ids.media = (media.expectStatus(201).body as { id: string }).id;
  });
  afterAll(() => s?.close());

  /** A valid value for each path parameter, chosen by the route's path. */
  const paramValue = (route: RouteDef, name: string): string => {
    if (name === "name" || name === "collection") return "posts";
    if (name === "slug") return "contact";
    if (name === "fileId") return "00000000-0000-4000-8000-000000000001";
    const byPath: [RegExp, string][] = [[/entries/, "entry"], [/submissions/, "submission"], [/members/, "member"], [/keys/, "key"], [/rules/, "rule"], [/users/, "user"], [/webhooks/, "webhook"], [/media/, "media"]];
    return ids[byPath.find(([re]) => re.test(route.path))?.[1] ?? "entry"]!;
  };
  const fill = (route: RouteDef, override?: [string, string]) =>
    route.path.replace(/:(\w+)/g, (_m, name: string) => (override && override[0] === name ? override[1] : encodeURIComponent(paramValue(route, name))));
  const callerFor = (route: RouteDef) => (route.access.kind === "key" ? key : route.access.kind === "account" ? account : owner);

  /** The clear-error check: 4xx and a non-empty error message (MCP answers JSON-RPC errors). */
  const problems: string[] = [];
  const expectClear4xx = (label: string, res: Result, allowSuccess: boolean) => {
    const { text } = res;
    if (res.status >= 500 || (!allowSuccess && res.status < 400)) return void problems.push(`${label} → ${res.status} ${text.slice(0, 200)}`);
    if (res.status < 400) return;
    let body: { error?: unknown } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      return void problems.push(`${label} → ${res.status} non-JSON error: ${text.slice(0, 120)}`);
    }
    const error = body?.error;
    const message = typeof error === "string" ? error : (error as { message?: unknown } | undefined)?.message;
    if (typeof message !== "string" || message.length === 0) problems.push(`${label} → ${res.status} without a clear error: ${text.slice(0, 120)}`);
  };

  it("answers every bad body, path parameter and query with a clear 4xx and changes nothing", async () => {
    const before = await dumpDatabase(s.svc.context.sql);
    for (const route of allRoutes) {
      const key = routeKey(route);
      const as = callerFor(route);
      const cases = TEMPLATES[key] ? bodyCases(TEMPLATES[key]!, BODY_LIMIT) : (RAW_CASES[key]?.(UPLOAD_LIMIT) ?? []);
      // MCP: a well-formed JSON-RPC request with a bad method or id is a JSON-RPC answer, not an HTTP error.
      const rpc = TEMPLATES[key]?.jsonRpc === true;
      for (const c of cases) expectClear4xx(`${key} [${c.name}]`, await send(route.method, fill(route), c, as), rpc && !c.name.startsWith("over"));
      // Path parameters: one at a time, the others valid. A GET of odd ids may answer 404 only.
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        for (const value of PARAM_VALUES) {
          const c: BadRequest = takesBody(route) && TEMPLATES[key] ? { name: "template", body: JSON.stringify(TEMPLATES[key]!.body) } : { name: "no body" };
          expectClear4xx(`${key} [:${name}=${value.slice(0, 30)}]`, await send(route.method, fill(route, [name!, value]), c, as), false);
        }
      }
      // Queries on reads may succeed (unknown parameters are ignored), never 5xx; on writes they come with a bad body.
      for (const query of QUERIES) {
        const c: BadRequest = takesBody(route) ? { name: "bad body", body: "{\"a\":", query } : { name: "query", query };
        if (route.method === "DELETE" || (takesBody(route) && !TEMPLATES[key])) continue;
        expectClear4xx(`${key} [?${query.slice(0, 40)}]`, await send(route.method, fill(route), c, as), route.method === "GET");
      }
    }
    // Outside the API: the static site fallback with traversal and odd bytes.
    for (const path of ["/..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "/a%00b.html", "/%FF%FE", `/${"x".repeat(4000)}`]) {
      const res = await send("GET", path);
      if (res.status >= 500) problems.push(`GET ${path} → ${res.status}`);
    }
    expect(problems, problems.slice(0, 40).join("\n")).toEqual([]);
    const after = await dumpDatabase(s.svc.context.sql);
    expect(counts(after)).toEqual(counts(before));
    expect(after).toEqual(before);
    console.info(`bad-input corpus on ${driver}: ${tried.requests} requests over ${allRoutes.length} routes`);
  });
});
