/**
 * Sessions that behave like a browser app, in a real browser: a new tab (or a link opened in one)
 * of the same browser continues the session through the HttpOnly refresh cookie, with no token in
 * web storage; tabs that start together refresh one after another and all stay signed in; signing
 * out in one tab signs out the others; a member removed by an owner is told why at the next
 * refresh; a member whose grants an owner changed sees a notice and, on a screen they can no
 * longer use, the refusal naming the grant; the members screen says when a change applies.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

const PASSWORD = "member-password-1";

describeBrowser("dashboard in Chromium: sessions across tabs", () => {
  let d: Dashboard;
  let owner: Caller;

  beforeAll(async () => {
    d = await startDashboard();
    const site = callerAt(`http://127.0.0.1:${d.port}`);
    owner = callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
  }, 60_000);
  afterAll(() => d?.close());

  const signedIn = (page: Page) => page.getByRole("button", { name: "Sign out" }).waitFor();
  const signInScreen = (page: Page) => page.getByRole("heading", { name: "Sign in" }).waitFor();
  const webStorage = (page: Page) => page.evaluate(() => [Object.entries(localStorage), Object.entries(sessionStorage)]);
  const refreshCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === "svc_dashboard_refresh");
  const addMember = async (email: string, grants: string[]) =>
    (await owner.post("/api/dashboard/members", { email, password: PASSWORD, role: "member", grants })).expectStatus(201).body as { id: string };

  it("a new tab at a deep link lands on that screen signed in; no token in localStorage or sessionStorage", async () => {
    const context = await d.context();
    const first = await context.newPage();
    const csp = cspViolations(first);
    await signIn(first, d.url, d.owner.email, d.owner.password);
    const cookie = (await refreshCookie(context))!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/dashboard/", domain: "admin.localhost", secure: false });
    expect(cookie.value).toMatch(/^dr_/);
    expect(await first.evaluate(() => document.cookie)).toBe("");

    const second = await context.newPage();
    await second.goto(`${d.url}webhooks`);
    await second.getByRole("heading", { name: "Webhooks" }).waitFor();
    await signedIn(second);
    for (const page of [first, second]) expect(await webStorage(page)).toEqual([[], []]);
    // Both tabs keep working: each holds its own access token, the cookie rotated once per refresh.
    await navLink(first, "Collections").click();
    await first.getByRole("heading", { name: "Collections" }).waitFor();
    expect((await refreshCookie(context))!.value).not.toBe(cookie.value);
    expect(csp).toEqual([]);
  });

  it("tabs opened at the same moment all stay signed in (no reuse detection), also across reloads", async () => {
    const context = await d.context();
    await signIn(await context.newPage(), d.url, d.owner.email, d.owner.password);
    const paths = ["", "collections", "webhooks", "access/members"];
    const tabs = await Promise.all(paths.map(() => context.newPage()));
    await Promise.all(tabs.map((tab, i) => tab.goto(`${d.url}${paths[i]}`)));
    await Promise.all(tabs.map(signedIn));
    await Promise.all(tabs.map((tab) => tab.reload()));
    await Promise.all(tabs.map(signedIn));
    // The sign-in is still alive: a further tab continues it.
    const late = await context.newPage();
    await late.goto(`${d.url}webhooks`);
    await late.getByRole("heading", { name: "Webhooks" }).waitFor();
    for (const tab of tabs) expect(await tab.getByRole("heading", { name: "Sign in" }).count()).toBe(0);
  });

  it("signing out in one tab signs out the others, and a new tab opens on the sign-in screen", async () => {
    const context = await d.context();
    const first = await context.newPage();
    await signIn(first, d.url, d.owner.email, d.owner.password);
    const second = await context.newPage();
    await second.goto(`${d.url}collections`);
    await signedIn(second);

    await first.getByRole("button", { name: "Sign out" }).click();
    await signInScreen(first);
    await signInScreen(second);
    await expect.poll(() => second.getByRole("status").textContent()).toContain("You signed out in another tab");
    expect(await refreshCookie(context)).toBeUndefined();
    const third = await context.newPage();
    await third.goto(d.url);
    await signInScreen(third);
    expect(await third.getByRole("status").count()).toBe(0);
  });

  it("a member removed by an owner is told why at the next refresh", async () => {
    const member = await addMember("leaving@demo.localhost", ["entries:read"]);
    const page = await (await d.context()).newPage();
    await signIn(page, d.url, "leaving@demo.localhost", PASSWORD);
    (await owner.delete(`/api/dashboard/members/${member.id}`)).expectStatus(200);

    // The next call is refused (the access token ended with the member), and the refresh says why.
    await navLink(page, "Collections").click();
    await signInScreen(page);
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Your access to this workspace was removed");
    await expectAccessible(page, "sign-in after the member was removed");
    await screenshot(page, "session-member-removed");
  });

  it("a member whose grants an owner changed sees a notice after the background refresh, and the refusal names the grant", async () => {
    const member = await addMember("regranted@demo.localhost", ["entries:read", "media:read"]);
    const context = await d.context();
    await context.clock.install();
    const page = await context.newPage();
    await signIn(page, d.url, "regranted@demo.localhost", PASSWORD);
    await navLink(page, "Media").click();
    await page.getByRole("heading", { name: "Media" }).waitFor();

    (await owner.patch(`/api/dashboard/members/${member.id}`, { grants: ["entries:read", "forms:read"] })).expectStatus(200);
    // Access tokens live five minutes; the dashboard refreshes a minute early, in the background.
    await page.clock.fastForward("04:30");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Not available");
    const main = page.locator("main");
    await expect.poll(() => main.textContent()).toContain("An owner changed your access: you no longer hold media:read");
    expect(await main.textContent()).toContain("This section needs the media:read grant");
    const notice = page.getByRole("status").filter({ hasText: "Your access changed" });
    expect(await notice.textContent()).toContain("removed media:read; added forms:read");
    expect(await navLink(page, "Forms").count()).toBe(1);
    await expectAccessible(page, "access changed");
    await screenshot(page, "session-access-changed");
    await notice.getByRole("button", { name: "Dismiss" }).click();
    expect(await page.getByText("Your access changed").count()).toBe(0);
  });

  it("the members screen says when a change applies, from the server's access token lifetime", async () => {
    await addMember("note@demo.localhost", ["entries:read"]);
    const page = await (await d.context()).newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    await navLink(page, "Users & API Keys").click();
    await page.getByRole("button", { name: "Edit note@demo.localhost" }).click();
    const note = page.getByTestId("applies-within");
    expect(await note.textContent()).toContain("A change applies within 5 minutes, at their next token refresh, without signing out");
    await expectAccessible(page, "members: editing a member");
    await screenshot(page, "members-applies-within", true);
    await page.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("applies within 5 minutes");
  });
  it("a refresh that fails without a refusal keeps the session and the editor, says Reconnecting…, and recovers", async () => {
    const context = await d.context();
    await context.clock.install();
    const page = await context.newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    (await owner.post("/api/dashboard/collections", { name: "notes", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    await page.goto(`${d.url}collections/notes/new`);
    const title = page.getByLabel(/^title/);
    await title.fill("Typed during an outage");

    await page.route("**/api/dashboard/refresh", (r) => r.abort());
    await page.clock.fastForward("04:30");
    const reconnecting = page.getByRole("status").filter({ hasText: "Reconnecting…" });
    await reconnecting.waitFor();
    await page.clock.fastForward("00:20");
    expect(await title.inputValue()).toBe("Typed during an outage");
    expect(await page.getByRole("heading", { name: /^Sign in/ }).count()).toBe(0);
    await expectAccessible(page, "reconnecting");
    await screenshot(page, "session-reconnecting");

    await page.unroute("**/api/dashboard/refresh");
    await page.clock.fastForward("00:30");
    await expect.poll(() => reconnecting.count()).toBe(0);
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL((u) => !u.pathname.endsWith("/new"));
    expect(page.url()).not.toMatch(/\/new$/);
    expect(await title.inputValue()).toBe("Typed during an outage");
  });

  it("a session that really ends keeps unsaved edits under a sign-in dialog; signing in again saves them", async () => {
    (await owner.post("/api/dashboard/collections", { name: "drafts", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    const context = await d.context();
    await context.clock.install();
    const page = await context.newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    await page.goto(`${d.url}collections/drafts/new`);
    const title = page.getByLabel(/^title/);
    await title.fill("Kept across sign-in");

    await page.route("**/api/dashboard/refresh", (r) => r.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ error: "revoked", reason: "revoked" }) }));
    await page.clock.fastForward("04:30");
    const dialog = page.getByRole("dialog", { name: "Sign in to keep your changes" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("it was signed out or revoked");
    expect(await title.inputValue()).toBe("Kept across sign-in");
    await expectAccessible(page, "sign in over unsaved edits");
    await screenshot(page, "session-ended-with-edits");

    await page.unroute("**/api/dashboard/refresh");
    expect(await dialog.getByLabel("Email").inputValue()).toBe(d.owner.email);
    await dialog.getByLabel("Password").fill(d.owner.password);
    await dialog.getByRole("button", { name: "Sign in" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await title.inputValue()).toBe("Kept across sign-in");
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL((u) => !u.pathname.endsWith("/new"));
    const created = (await owner.get(`/api/dashboard/collections/drafts/entries/${page.url().split("/").pop()}`)).expectStatus(200).body;
    expect(created.title).toBe("Kept across sign-in");
  });
});
