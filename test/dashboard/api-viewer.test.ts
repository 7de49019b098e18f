/**
 * The API reference viewer at /_/api/ on the dashboard host: Swagger UI (swagger-ui-dist served
 * from the built dashboard, same origin) renders the workspace's GET /api/openapi.json under the
 * dashboard's CSP, with no violation and no page error. Real `svc serve`, real Chromium.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";
import { DASHBOARD_CSP } from "../../src/http/dashboard/serve.js";

describeBrowser("dashboard in Chromium: API reference viewer", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  const pageErrors: string[] = [];
  /** A visitor of the demo workspace's host. */
  let site: Caller;

  beforeAll(async () => {
    d = await startDashboard();
    site = callerAt(`http://127.0.0.1:${d.port}`);
    const owner = callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string", required: true }] })).expectStatus(201);
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    page.on("pageerror", (e) => pageErrors.push(e.message));
  }, 60_000);
  afterAll(() => d?.close());

  it("serves the viewer page under the dashboard's CSP, on the dashboard host only", async () => {
    const res = (await site.get("/_/api/", { host: "admin.localhost" })).expectStatus(200);
    expect(res.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = res.text;
    expect(html).toContain('<div id="swagger-ui">');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // Elsewhere /_/ redirects to the dashboard host, like the app.
    (await site.get("/_/api/")).expectStatus(302);
  });

  it("the dashboard's top bar links to it, in a new tab", async () => {
    const app = await (await d.context()).newPage();
    await signIn(app, d.url, d.owner.email, d.owner.password);
    const link = app.getByRole("link", { name: "API reference" });
    expect(await link.getAttribute("href")).toBe("/_/api/");
    const [viewer] = await Promise.all([app.waitForEvent("popup"), link.click()]);
    await viewer.locator(".opblock").first().waitFor({ timeout: 60_000 });
    expect(new URL(viewer.url()).pathname).toBe("/_/api/");
  });

  it("renders the workspace's operations, per-collection paths included, with no CSP violation", async () => {
    await page.goto(new URL("api/", d.url).href);
    await page.locator(".opblock").first().waitFor({ timeout: 60_000 });
    const paths = await page.locator(".opblock-summary-path").allTextContents();
    const clean = paths.map((p) => p.replace(/\u200b/g, "").trim());
    expect(clean).toEqual(expect.arrayContaining(["/api/v1/{collection}", "/api/v1/posts", "/api/dashboard/collections", "/api/mcp", "/api/openapi.json"]));
    expect(await page.locator(".info .title").textContent()).toContain("contentsvc API");
    // The document was read from this origin, never a public validator service.
    expect(await page.locator(".errors-wrapper").count()).toBe(0);
    await screenshot(page, "api-viewer");
    // A collection's own path shows its entry schema: the field the collection defines is in the example.
    const posts = page.locator(".opblock").filter({ has: page.locator('.opblock-summary-path[data-path="/api/v1/posts"]') });
    await posts.locator(".opblock-summary").click();
    await expect.poll(() => posts.textContent(), { timeout: 30_000 }).toContain('"title"');
    expect(csp).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
