/**
 * Creating an API key or inviting a member with no grants asks first, in a real browser: the
 * form explains that the credential can authenticate but do nothing, creates nothing until the
 * owner confirms, and "Choose grants" goes back to the form. An owner (who holds every grant) is
 * invited without the question.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: credentials without grants", () => {
  let d: Dashboard;
  let page: Page;
  beforeAll(async () => {
    d = await startDashboard();
    page = await (await d.context()).newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  const question = () => page.getByRole("alert").filter({ hasText: "No grants selected." });

  it("an API key with no grants is created only once the owner confirms", async () => {
    await page.goto(`${d.url}access/keys`);
    await page.getByLabel("Name").fill("empty");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => question().textContent()).toContain("authenticate but can do nothing");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Create key without grants");
    await screenshot(page, "api-key-no-grants", true);
    await expectAccessible(page, "API key without grants");
    expect(await page.getByRole("cell", { name: "empty" }).count()).toBe(0);

    await page.getByRole("button", { name: "Choose grants" }).click();
    expect(await question().count()).toBe(0);
    expect(await page.getByTestId("key-value").count()).toBe(0);

    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("button", { name: "Create key without grants" }).click();
    expect(await page.getByTestId("key-value").textContent()).toMatch(/^pk_/);
    await expect.poll(() => page.getByRole("row", { name: /empty/ }).textContent()).toContain("none");
  });

  it("checking a grant answers the question: the key is created at once", async () => {
    await page.getByLabel("Name").fill("reader");
    await page.getByRole("button", { name: "Create key" }).click();
    await question().waitFor();
    await page.getByLabel("entries:read").check();
    expect(await question().count()).toBe(0);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByRole("row", { name: /reader/ }).textContent()).toContain("entries:read");
  });

  it("a member with no grants is invited only once the owner confirms; an owner without the question", async () => {
    await navLink(page, "Users & API Keys").click();
    await page.getByLabel("Email", { exact: true }).fill("idle@demo.localhost");
    await page.getByLabel(/^Initial password/).fill("member-password-1");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect.poll(() => question().textContent()).toContain("sign in but can do nothing");
    await screenshot(page, "member-no-grants", true);
    await expectAccessible(page, "member without grants");
    expect(await page.locator("table").first().textContent()).not.toContain("idle@demo.localhost");
    await page.getByRole("button", { name: "Add member without grants" }).click();
    await expect.poll(() => page.locator("table").first().textContent(), { timeout: 15_000 }).toContain("idle@demo.localhost");

    await page.getByLabel("Email", { exact: true }).fill("second-owner@demo.localhost");
    await page.getByLabel(/^Initial password/).fill("member-password-1");
    await page.getByLabel("Role").selectOption("owner");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect.poll(() => page.locator("table").first().textContent(), { timeout: 15_000 }).toContain("second-owner@demo.localhost");
    expect(await question().count()).toBe(0);
  });
});
