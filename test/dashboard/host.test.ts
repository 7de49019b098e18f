/**
 * The dashboard's own origin over real HTTP: the dashboard host serves `/_/` (strict headers,
 * immutable hashed assets, revalidated index.html) and never site files; `/_/` on the other hosts
 * redirects there and is never served from a deploy, whatever the spelling of the path.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite } from "../site/fixtures.js";
import { DASHBOARD_CSP } from "../../src/http/dashboard/serve.js";

const ADMIN = "admin.demo.localhost";
const FAKE_SIGNIN = "<form action=/api/dashboard/login>fake sign-in</form>";

describe.each(drivers)("dashboard host on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", "www.demo.localhost"] });
    expect(ws.dashboard_host).toBe(ADMIN);
    owner = await dashboardToken(t.svc.context, ws.id, "owner");
    const archive = await packSite({ "index.html": "<p>site</p>", "_/index.html": FAKE_SIGNIN, "_/login.html": FAKE_SIGNIN, "about.html": "about" });
    const res = await t.request("/api/dashboard/site/deploys", { method: "POST", body: archive as BodyInit, token: owner, headers: { "content-type": "application/gzip" } });
    expect(res.status).toBe(201);
  });
  afterAll(() => t?.close());

  it("serves the dashboard page at /_/ on the dashboard host with a strict CSP, nosniff, no-referrer and no-cache", async () => {
    const res = await t.request("/_/", { host: `${ADMIN}:8080` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toMatch(/script-src 'self';/);
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    expect(html).toContain('<div id="app">');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toContain("<style");
  });

  it("serves hashed assets immutable, answers unknown assets 404 and client routes with the page", async () => {
    const html = await (await t.request("/_/", { host: ADMIN })).text();
    const script = /src="(\/_\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await t.request(script, { host: ADMIN });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const revalidated = await t.request(script, { host: ADMIN, headers: { "if-none-match": asset.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
    expect((await t.request("/_/assets/nope-123.js", { host: ADMIN })).status).toBe(404);
    const route = await t.request("/_/collections/posts", { host: ADMIN });
    expect(route.status).toBe(200);
    expect(await route.text()).toBe(html);
  });

  it("redirects /_/ on the workspace's other hosts to the dashboard host, keeping the port", async () => {
    for (const host of ["demo.localhost:4321", "www.demo.localhost:4321"]) {
      const res = await t.request("/_/", { host, redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`http://${ADMIN}:4321/_/`);
    }
    const bare = await t.request("/_", { host: "demo.localhost", redirect: "manual" });
    expect(bare.headers.get("location")).toBe(`http://${ADMIN}/_/`);
  });

  it("never serves a deployed _/ directory on a site host, in any spelling of the path", async () => {
    expect(await (await t.request("/", { host: "demo.localhost" })).text()).toBe("<p>site</p>");
    for (const path of ["/_/index.html", "/_/login", "/_/login.html", "/%5F/index.html", "/%5f/login.html", "//_/index.html", "/./_/index.html"]) {
      const res = await t.request(path, { host: "demo.localhost", redirect: "manual" });
      expect(await res.text(), path).not.toContain("fake sign-in");
      expect([302, 400, 404], path).toContain(res.status);
    }
  });

  it("serves no site file on the dashboard host; / there goes to /_/", async () => {
    for (const path of ["/index.html", "/about", "/about.html"]) {
      const res = await t.request(path, { host: ADMIN });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: "The dashboard host serves no site files" });
    }
    const root = await t.request("/", { host: ADMIN, redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/_/");
  });

  it("answers the API on the dashboard host like on any host of the workspace", async () => {
    const res = await t.request("/api/dashboard/me", { host: ADMIN, token: owner });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ role: "owner", workspace: { slug: "demo", name: "demo", identity: false } });
  });
});

describe("dashboard turned off", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer("sqlite", { dashboard: false });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const owner = await dashboardToken(t.svc.context, ws.id, "owner");
    const archive = await packSite({ "index.html": "site", "_/index.html": FAKE_SIGNIN });
    await t.request("/api/dashboard/site/deploys", { method: "POST", body: archive as BodyInit, token: owner, headers: { "content-type": "application/gzip" } });
  });
  afterAll(() => t?.close());

  it("answers 404 at /_/ on every host and still serves no deployed _/ file", async () => {
    for (const host of ["demo.localhost", ADMIN]) {
      const res = await t.request("/_/", { host, redirect: "manual" });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "The dashboard is turned off on this service" });
    }
    const page = await t.request("/_/index.html", { host: "demo.localhost" });
    expect(await page.text()).not.toContain("fake sign-in");
  });
});
