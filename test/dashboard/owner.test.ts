/**
 * An owner in a real browser, through the UI only: signs in (a wrong password shown plainly),
 * creates collections and an entry, publishes it (the delivery API serves it), creates an API key
 * whose value is shown once and reads the private collection, revokes it (the key gets 401).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: owner", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  /** The delivery API of the demo workspace, as a visitor or with a key. */
  const delivery = (token?: string) => callerAt(`http://127.0.0.1:${d.port}`, token);

  beforeAll(async () => {
    d = await startDashboard();
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
  }, 60_000);
  afterAll(() => d?.close());

  it("opens from a site host's /_/ on the dashboard host and refuses a wrong password plainly", async () => {
    await page.goto(`http://localhost:${d.port}/_/`);
    expect(page.url()).toBe(d.url);
    await page.getByLabel("Email").fill(d.owner.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Invalid email or password");
    await screenshot(page, "sign-in");
    await expectAccessible(page, "sign-in");
  });

  it("says plainly when sign-in attempts are rate limited", async () => {
    await page.getByLabel("Email").fill("guess@demo.localhost");
    const alert = page.getByRole("alert");
    for (let i = 0; i < 30 && !/Too many attempts/.test((await alert.textContent()) ?? ""); i++) {
      await page.getByLabel("Password").fill(`guess-${i}-password`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true);
    }
    expect(await alert.textContent()).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
  }, 90_000);

  it("signs in; the refresh token is an HttpOnly cookie, nothing in web storage or the URL", async () => {
    await signIn(page, d.url, d.owner.email, d.owner.password);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, ""]);
    expect((await page.context().cookies()).map((c) => [c.name, c.httpOnly])).toEqual([["svc_dashboard_refresh", true]]);
    expect(page.url()).not.toMatch(/ds_|dr_/);
    await expect.poll(() => page.getByRole("navigation", { name: "Sections" }).textContent()).toContain("Webhooks");
    await screenshot(page, "overview");
    await expectAccessible(page, "overview");
  });

  it("creates a public and a private collection with fields", async () => {
    for (const [name, access] of [["posts", "public"], ["secrets", "private"]] as const) {
      await navLink(page, "Collections").click();
      await page.getByRole("link", { name: "New collection" }).click();
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Access").selectOption(access);
      await page.getByRole("button", { name: "Add field" }).click();
      await page.getByLabel("Field name").fill("title");
      await page.getByLabel("required").check();
      if (name === "posts") {
        await page.getByRole("button", { name: "Add field" }).click();
        await page.getByLabel("Field name").nth(1).fill("views");
        await page.getByLabel("Type").nth(1).selectOption("number");
      }
      await page.getByRole("button", { name: "Create collection" }).click();
      await page.waitForURL(`**/_/collections/${name}/definition`);
    }
    await screenshot(page, "collection-definition");
    await expectAccessible(page, "collection definition");
    await navLink(page, "Collections").click();
    await expect.poll(() => page.locator("table").textContent()).toContain("secrets");
    await screenshot(page, "collections");
    await expectAccessible(page, "collections");
  });

  it("creates an entry as a draft, publishes it, and the delivery API serves it", async () => {
    for (const [collection, title] of [["posts", "Hello from the dashboard"], ["secrets", "classified"]]) {
      await page.goto(`${d.url}collections/${collection}/new`);
      await page.getByLabel(/^title/).fill(title!);
      await page.getByRole("button", { name: "Create draft" }).click();
      await expect.poll(() => page.getByTestId("status").textContent()).toBe("draft");
      await page.getByRole("button", { name: "Publish" }).click();
      await expect.poll(() => page.getByTestId("status").textContent()).toBe("published");
    }
    await screenshot(page, "entry-editor");
    await expectAccessible(page, "entry editor");
    const served = (await delivery().get("/api/v1/posts")).expectStatus(200).body;
    expect(served.data.map((e: { title: string }) => e.title)).toEqual(["Hello from the dashboard"]);
    await page.goto(`${d.url}collections/posts`);
    await expect.poll(() => page.locator("tbody").textContent()).toContain("Hello from the dashboard");
    await screenshot(page, "entries");
    await expectAccessible(page, "entries");
  });

  it("shows the 409 of a schema change with the API's message", async () => {
    await page.goto(`${d.url}collections/posts/definition`);
    await page.locator("#f-name-1").waitFor();
    await page.getByLabel("required").nth(1).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^Cannot make field views of collection posts required: 1 stored entr/);
    // The refused change is still an unsaved change: undone, leaving does not ask.
    await page.getByLabel("required").nth(1).uncheck();
  });

  it("creates an API key shown once; it reads the private collection until revoked, then gets 401", async () => {
    await navLink(page, "Users & API Keys").click();
    await screenshot(page, "members");
    await expectAccessible(page, "members");
    await page.getByRole("navigation", { name: "Users and API keys" }).getByRole("link", { name: "API Keys" }).click();
    await page.getByLabel("Name").fill("reader");
    // The picker says what users:write admits, tied to its checkbox for screen readers.
    const note = await page.getByLabel("users:write").evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(note).toMatch(/users:write.*accounts that gated\s+collections' rules let in.*as sensitive as entries:read/s);
    await page.getByLabel("entries:read").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const value = (await page.getByTestId("key-value").textContent())!;
    expect(value).toMatch(/^pk_[0-9a-f]{64}$/);
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("cannot be shown again");
    await screenshot(page, "api-key-created");
    await expectAccessible(page, "API keys");
    const read = (await delivery(value).get("/api/v1/secrets")).expectStatus(200);
    expect(read.body.data[0].title).toBe("classified");

    await page.reload();
    await page.getByRole("cell", { name: "reader" }).waitFor();
    expect(await page.content()).not.toContain(value);
    // From the keyboard: focus the row's Revoke, Enter asks, focus is on the confirmation, Enter revokes.
    await page.getByRole("row", { name: /reader/ }).getByRole("button", { name: "Revoke" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Yes, revoke");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("cell", { name: "reader" }).count()).toBe(0);
    (await delivery(value).get("/api/v1/secrets")).expectStatus(401);
  });

  it("signs out to the sign-in form and clears the refresh cookie; no CSP violation happened", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.context().cookies()).toEqual([]);
    expect(csp).toEqual([]);
  });
});
