/**
 * Access in the UI mirrors the API, in a real browser: the owner invites members through the
 * Members tab; a member holding entries:read sees entries (read-only) but no Webhooks or Users &
 * API Keys, and an owner-only URL shows a refusal; a member without grants sees an empty
 * dashboard that says so. A hostile entry value renders as text for both.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const PASSWORD = "member-password-1";

describeBrowser("dashboard in Chromium: members and hostile values", () => {
  let d: Dashboard;
  let owner: Page;
  let csp: string[];

  const expectInert = async (page: Page) => {
    await expect.poll(() => page.locator("tbody td").first().textContent()).toBe(HOSTILE);
    expect(await page.locator("tbody img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  };

  beforeAll(async () => {
    d = await startDashboard();
    owner = await (await d.context()).newPage();
    csp = cspViolations(owner);
    await signIn(owner, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  it("owner stores a hostile entry value and sees it as text", async () => {
    await owner.goto(`${d.url}collections/new`);
    await owner.getByLabel("Name", { exact: true }).fill("notes");
    await owner.getByRole("button", { name: "Add field" }).click();
    await owner.getByLabel("Field name").fill("title");
    await owner.getByRole("button", { name: "Create collection" }).click();
    await owner.waitForURL("**/collections/notes/definition");
    await owner.goto(`${d.url}collections/notes/new`);
    await owner.getByLabel(/^title/).fill(HOSTILE);
    await owner.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => owner.getByTestId("status").textContent()).toBe("draft");
    expect(await owner.getByLabel(/^title/).inputValue()).toBe(HOSTILE);
    await owner.goto(`${d.url}collections/notes`);
    await expectInert(owner);
  });

  it("owner invites a member with entries:read and one without grants", async () => {
    await navLink(owner, "Users & API Keys").click();
    for (const [email, grant] of [["reader@demo.localhost", "entries:read"], ["nobody@demo.localhost", undefined]] as const) {
      await owner.getByLabel("Email", { exact: true }).fill(email);
      await owner.getByLabel(/^Initial password/).fill(PASSWORD);
      if (grant) await owner.getByLabel(grant).check();
      await owner.getByRole("button", { name: "Add member" }).click();
      // No grants: the form asks first (no-grants.test.ts covers the question itself).
      if (!grant) await owner.getByRole("button", { name: "Add member without grants" }).click();
      // Adding a member hashes its password at the real scrypt cost (a served CLI instance).
      await expect.poll(() => owner.locator("table").first().textContent(), { timeout: 15_000 }).toContain(email);
    }
    await expect.poll(() => owner.getByRole("row", { name: /reader@demo\.localhost/ }).textContent()).toContain("entries:read");
  });

  it("a member with entries:read sees entries read-only, and no Webhooks or Users & API Keys", async () => {
    const page = await (await d.context()).newPage();
    await signIn(page, d.url, "reader@demo.localhost", PASSWORD);
    const nav = (await page.getByRole("navigation", { name: "Sections" }).textContent())!;
    expect(nav).toContain("Collections");
    for (const hidden of ["Webhooks", "Users & API Keys", "Identity settings", "Media", "Forms", "Site", "Rules"]) expect(nav).not.toContain(hidden);
    await navLink(page, "Collections").click();
    await page.getByRole("link", { name: "Entries", exact: true }).click();
    await expectInert(page);
    expect(await page.getByRole("link", { name: "New entry" }).count()).toBe(0);
    await screenshot(page, "member-entries");
    await expectAccessible(page, "entries (member)");
    await page.getByRole("link", { name: "View", exact: true }).click();
    await expect.poll(() => page.getByLabel(/^title/).inputValue()).toBe(HOSTILE);
    expect(await page.getByRole("button", { name: /Save|Publish|Delete/ }).count()).toBe(0);

    for (const path of ["webhooks", "access/keys", "identity"]) {
      await page.goto(`${d.url}${path}`);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Not available");
      expect(await page.textContent("main")).toContain("for workspace owners only");
    }
    await screenshot(page, "refused");
    await expectAccessible(page, "refusal");
  });

  it("a grant change reaches a signed-in member at the background refresh, before the token expires, without sign-out", async () => {
    const context = await d.context();
    await context.clock.install();
    const page = await context.newPage();
    await signIn(page, d.url, "reader@demo.localhost", PASSWORD);
    const nav = page.getByRole("navigation", { name: "Sections" });
    expect(await nav.textContent()).not.toContain("Media");
    const refreshCookie = async () => (await context.cookies()).find((c) => c.name === "svc_dashboard_refresh")?.value;
    const before = await refreshCookie();
    expect(before).toMatch(/^dr_/);

    await navLink(owner, "Users & API Keys").click();
    await owner.getByRole("button", { name: "Edit reader@demo.localhost" }).click();
    await owner.locator("#edit-media-read").check();
    await owner.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => owner.getByRole("status").textContent()).toContain("next token refresh");
    expect(await nav.textContent()).not.toContain("Media");

    // The access token lives five minutes; the dashboard refreshes it a minute early.
    await page.clock.fastForward("04:30");
    await expect.poll(() => nav.textContent()).toContain("Media");
    expect(await refreshCookie()).not.toBe(before);
  });

  it("a member without grants sees an empty dashboard that says so", async () => {
    const page = await (await d.context()).newPage();
    await signIn(page, d.url, "nobody@demo.localhost", PASSWORD);
    await expect.poll(() => page.getByRole("heading", { name: "Nothing to show yet" }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Sections" }).getByRole("link").allTextContents()).toEqual(["Overview"]);
    await screenshot(page, "empty-dashboard");
    await expectAccessible(page, "empty dashboard");
    await page.goto(`${d.url}collections`);
    await expect.poll(() => page.textContent("main")).toContain("needs the collections:read grant");
    expect(csp).toEqual([]);
  });
});
