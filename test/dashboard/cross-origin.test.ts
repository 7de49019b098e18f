/**
 * The dashboard's own origin against a hostile deploy: while an owner is signed in in one tab, a
 * deployed site's script (on a workspace host) opens the dashboard, frames it and fetches it, and
 * tries to read its page and its storage. Every read fails: the origins differ, the dashboard
 * sends COOP same-origin (no window handle) and frame-ancestors 'none' (no frame).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { requestAt } from "../helpers/server.js";
import { packSite } from "../site/fixtures.js";
import { describeBrowser, signIn, startDashboard, type Dashboard } from "./browser.js";

const ATTACK = `
const out = {};
const attempt = async (name, fn) => { try { out[name] = await fn(); } catch (e) { out[name] = "blocked: " + e.name; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
document.getElementById("run").addEventListener("click", async () => {
  const url = "http://admin.localhost:" + location.port + "/_/";
  const w = window.open(url);
  await sleep(1500);
  await attempt("popupDocument", () => (w && !w.closed ? w.document.documentElement.outerHTML : "no handle"));
  await attempt("popupStorage", () => (w && !w.closed ? JSON.stringify(Object.entries(w.sessionStorage)) : "no handle"));
  await attempt("fetchPage", async () => (await fetch(url, { credentials: "include" })).text());
  await attempt("fetchMe", async () => (await fetch("http://admin.localhost:" + location.port + "/api/dashboard/me", { credentials: "include" })).text());
  const refreshUrl = "http://admin.localhost:" + location.port + "/api/dashboard/refresh";
  const cookieForm = { "x-dashboard-session": "cookie", "content-type": "application/json" };
  await attempt("refreshCors", async () => (await fetch(refreshUrl, { method: "POST", credentials: "include", headers: cookieForm, body: "{}" })).text());
  await attempt("refreshNoCors", async () => (await fetch(refreshUrl, { method: "POST", mode: "no-cors", credentials: "include", headers: cookieForm, body: "{}" })).type);
  const frame = document.createElement("iframe");
  frame.src = url;
  document.body.append(frame);
  await sleep(1000);
  await attempt("frameDocument", () => (frame.contentDocument ? frame.contentDocument.documentElement.outerHTML : "no document"));
  await attempt("ownStorage", () => JSON.stringify([Object.entries(sessionStorage), Object.entries(localStorage)]));
  window.__attack = out;
});
`;

describeBrowser("dashboard in Chromium: a deployed site against the dashboard", () => {
  let d: Dashboard;
  beforeAll(async () => {
    d = await startDashboard();
  }, 60_000);
  afterAll(() => d?.close());

  it("a site script cannot read the dashboard page or its storage while the owner is signed in in another tab", async () => {
    const context = await d.context();
    const owner = await context.newPage();
    await signIn(owner, d.url, d.owner.email, d.owner.password);
    const refresh = (await context.cookies()).find((c) => c.name === "svc_dashboard_refresh")?.value;
    expect(refresh).toMatch(/^dr_/);

    await owner.goto(`${d.url}site`);
    const archive = await packSite({ "index.html": '<button id="run">run</button><script src="/attack.js"></script>', "attack.js": ATTACK });
    await owner.locator("#site-archive").setInputFiles({ name: "site.tar.gz", mimeType: "application/gzip", buffer: Buffer.from(archive) });
    await expect.poll(() => owner.getByText("site.tar.gz deployed and live.").count()).toBe(1);

    const attacker = await context.newPage();
    await attacker.goto(`http://demo.localhost:${d.port}/`);
    const popup = context.waitForEvent("page");
    await attacker.click("#run");
    const opened = await popup;
    await expect.poll(() => attacker.evaluate(() => (window as unknown as { __attack?: object }).__attack), { timeout: 15_000 }).toBeDefined();
    const out = (await attacker.evaluate(() => (window as unknown as { __attack: Record<string, string> }).__attack)) as Record<string, string>;

    // The popup did load the dashboard (on its own origin), and none of it reached the site.
    await opened.waitForLoadState();
    expect(opened.url()).toBe(d.url);
    expect(out.popupDocument).toMatch(/^(no handle|blocked: SecurityError)$/);
    expect(out.popupStorage).toMatch(/^(no handle|blocked: SecurityError)$/);
    expect(out.fetchPage).toBe("blocked: TypeError");
    expect(out.fetchMe).toBe("blocked: TypeError");
    // The refresh cookie: a cross-origin call with the opt-in header needs a preflight the API never grants; without
    // it (no-cors drops the header) the cookie is not read. Either way nothing rotates it, and the owner stays signed in below.
    expect(out.refreshCors).toBe("blocked: TypeError");
    expect(out.refreshNoCors).toBe("opaque");
    expect(out.frameDocument).toMatch(/^(no document|blocked: SecurityError)$/);
    expect(out.ownStorage).toBe("[[],[]]");
    expect(JSON.stringify(out)).not.toContain(refresh!);
    expect(JSON.stringify(out)).not.toContain('id="app"');
    // The owner's tab is still signed in.
    await owner.reload();
    await owner.getByRole("button", { name: "Sign out" }).waitFor();
  });

  it("the site host cannot serve or frame the dashboard: /_/ redirects, and the dashboard refuses framing", async () => {
    const res = await requestAt(`http://127.0.0.1:${d.port}`, "/_/", { host: `demo.localhost:${d.port}`, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(d.url);
    const page = await requestAt(`http://127.0.0.1:${d.port}`, "/_/", { host: "admin.localhost" });
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });
});
