/**
 * The static site over real HTTP (DESIGN §4.2): deploy a tar.gz, serving rules (index.html,
 * clean URLs, 404.html, types, ETag/304, HEAD), traversal, rollback on the very next request
 * (also from a second instance on the same database), named rollback, the deploy listing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { silentLogger, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { createService, type Service } from "../../src/service.js";
import { packSite, siteFiles } from "./fixtures.js";

/** A GET with the path sent exactly as written (no client-side normalisation of `..`). */
function rawGet(t: TestServer, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: t.port, path, headers: { host: "demo.localhost" } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject).end();
  });
}

describe.each(drivers)("static site serving on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let second: Service;
  const deploy = (body: Uint8Array, caller = owner) => caller.post("/api/dashboard/site/deploys", undefined, { body: body as BodyInit, headers: { "content-type": "application/gzip" } });
  const rollback = (json: unknown = {}) => owner.post("/api/dashboard/site/rollback", json);
  const deploys = async () => (await owner.get("/api/dashboard/site/deploys")).expectStatus(200).body.data as { id: string; live: boolean }[];

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"));
    // A second instance on the same database and blob store, as behind a load balancer.
    second = await createService({ dataDir: s.t.db.dataDir, database: s.t.db.url, blobs: s.svc.context.blobs, secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
  });
  afterAll(async () => {
    await s?.close();
    await second?.close();
  });

  it("answers JSON 404 before anything is deployed; on / with where the API, the dashboard and its docs are", async () => {
    expect((await s.get("/")).expectStatus(404).body).toEqual({
      error: "No site is deployed on this workspace",
      api: "/api/v1/",
      openapi: "/api/openapi.json",
      dashboard: "http://admin.demo.localhost/_/",
      docs: "http://admin.demo.localhost/_/api/",
      deploy: "svc site deploy <dir> -w demo",
    });
    expect(await s.get("/about")).toEqual({ status: 404, body: { error: "No site is deployed on this workspace" } });
  });

  it("answers a browser's / before anything is deployed with a short page under a CSP that allows nothing", async () => {
    const res = (await s.get("/", { host: "demo.localhost:8080", headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } })).expectStatus(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; /);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = res.text;
    expect(html).toContain("No site is deployed on this workspace");
    expect(html).toContain('<a href="http://admin.demo.localhost:8080/_/">');
    expect(html).toContain('<a href="/api/v1/">');
    expect(html).not.toMatch(/<script|<style|<img|<link/);
  });

  let v1: string;
  let v2: string;
  it("deploys a tar.gz and makes it live: 201 with the deploy record", async () => {
    const body = (await deploy(await packSite(siteFiles("v1")))).expectStatus(201).body;
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), file_count: 5, size: expect.any(Number), created_at: expect.any(String), live: true, previous_deploy_id: null });
    v1 = body.id;
  });

  it.each([
    ["/", "<h1>home v1</h1>", "text/html; charset=utf-8", 200],
    ["/index.html", "<h1>home v1</h1>", "text/html; charset=utf-8", 200],
    ["/about", "<h1>about v1</h1>", "text/html; charset=utf-8", 200],
    ["/about.html", "<h1>about v1</h1>", "text/html; charset=utf-8", 200],
    ["/blog/", "<h1>blog v1</h1>", "text/html; charset=utf-8", 200],
    ["/blog", "<h1>blog v1</h1>", "text/html; charset=utf-8", 200],
    ["/blog/index.html", "<h1>blog v1</h1>", "text/html; charset=utf-8", 200],
    ["//blog//", "<h1>blog v1</h1>", "text/html; charset=utf-8", 200],
    ["/style.css", "body { color: red }", "text/css; charset=utf-8", 200],
    ["/style.css?v=3", "body { color: red }", "text/css; charset=utf-8", 200],
    ["/missing", "<h1>not found v1</h1>", "text/html; charset=utf-8", 404],
    ["/about/", "<h1>not found v1</h1>", "text/html; charset=utf-8", 404],
    ["/.env", "<h1>not found v1</h1>", "text/html; charset=utf-8", 404],
  ])("GET %s → the right file, type and status", async (path, body, type, status) => {
    const res = await s.get(path);
    expect([res.status, res.text, res.headers.get("content-type")]).toEqual([status, body, type]);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("caches HTML as no-cache and assets briefly; strong ETag with If-None-Match → 304; HEAD has no body", async () => {
    const home = await s.get("/");
    expect(home.headers.get("cache-control")).toBe("no-cache");
    expect((await s.get("/style.css")).headers.get("cache-control")).toBe("public, max-age=60");
    const etag = home.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await s.get("/", { headers: { "if-none-match": etag } });
    expect([again.status, again.text]).toEqual([304, ""]);
    (await s.get("/", { headers: { "if-none-match": '"other"' } })).expectStatus(200);
    const head = await s.send("HEAD", "/about");
    expect([head.status, head.text, head.headers.get("content-length")]).toEqual([200, "", String("<h1>about v1</h1>".length)]);
  });

  it("refuses traversal: `..` after decoding is 400, never a file outside the deploy", async () => {
    for (const path of ["/a/..%2f..%2fsecret", "/%2e%2e%2fx", "/blog/%2e%2e%5cabout.html", "/x%00y", "/%E0%A4%A"]) {
      const res = await rawGet(s.t, path);
      expect([path, res.status]).toEqual([path, 400]);
    }
    // Literal `..` is resolved by URL parsing before routing: it can only land inside the site.
    expect((await rawGet(s.t, "/blog/../about")).body).toBe("<h1>about v1</h1>");
    expect((await rawGet(s.t, "/../../../etc/passwd")).status).toBe(404);
  });

  it("keeps /api/ paths JSON, other methods 405, other workspaces separate", async () => {
    expect(await s.get("/api/nope")).toEqual({ status: 404, body: { error: "No such endpoint" } });
    const post = await s.post("/about");
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    (await s.get("/", { host: "other.localhost" })).expectStatus(404);
    expect((await s.get("/", { host: "nobody.localhost" })).body).toEqual({ error: "Unknown tenant" });
  });

  it("a new deploy is live at once and remembers the previous one", async () => {
    const { "404.html": _none, ...withoutNotFound } = siteFiles("v2");
    const body = (await deploy(await packSite(withoutNotFound))).expectStatus(201).body;
    v2 = body.id;
    expect(body.previous_deploy_id).toBe(v1);
    expect((await s.get("/")).text).toBe("<h1>home v2</h1>");
    expect(await s.get("/missing")).toEqual({ status: 404, body: { error: "Not found" } });
  });

  it("rollback serves the previous content on the very next request, on this and another instance", async () => {
    expect((await second.fetch(new Request("http://demo.localhost/")).then((r) => r.text()))).toBe("<h1>home v2</h1>");
    (await rollback()).expectStatus(200).expectBody({ id: v1, live: true, previous_deploy_id: v2 });
    expect((await s.get("/")).text).toBe("<h1>home v1</h1>");
    expect((await second.fetch(new Request("http://demo.localhost/")).then((r) => r.text()))).toBe("<h1>home v1</h1>");
    // Rolling back again toggles to the deploy just left.
    (await rollback()).expectBody({ id: v2, previous_deploy_id: v1 });
    expect((await s.get("/")).text).toBe("<h1>home v2</h1>");
  });

  it("rolls back to a named deploy; unknown ids 404; listing marks exactly the live one", async () => {
    (await rollback({ deploy_id: v1 })).expectBody({ id: v1, live: true });
    expect((await s.get("/about")).text).toBe("<h1>about v1</h1>");
    let list = await deploys();
    expect(list.map((d) => d.id).sort()).toEqual([v1, v2].sort());
    expect(list.filter((d) => d.live).map((d) => d.id)).toEqual([v1]);
    (await rollback({ deploy_id: v1 })).expectBody({ id: v1, live: true });
    (await rollback({ deploy_id: "00000000-0000-4000-8000-000000000000" })).expectStatus(404);
    (await rollback({ deploy_id: 5 })).expectStatus(400);
    (await rollback({ deployId: v2 })).expectStatus(400);
    (await rollback({ deploy_id: v2 })).expectStatus(200);
    list = await deploys();
    expect(list.filter((d) => d.live).map((d) => d.id)).toEqual([v2]);
  });

  it("refuses a rollback with nothing to roll back to (409)", async () => {
    const ws = await s.svc.context.workspaces.create({ slug: "fresh", hosts: ["fresh.localhost"] });
    const fresh = s.as(await dashboardToken(s.svc.context, ws.id, "owner"), { host: "fresh.localhost" });
    (await fresh.post("/api/dashboard/site/rollback")).expectStatus(409);
    (await deploy(await packSite({ "index.html": "x" }), fresh)).expectStatus(201);
    const first = await fresh.post("/api/dashboard/site/rollback");
    expect([first.status, first.body.error]).toEqual([409, expect.stringMatching(/no previous deploy/)]);
  });
});
