/**
 * Webhooks in a real browser, through the UI only: a refused URL is shown next to its field; a
 * webhook to a local HTTPS receiver (test CA, private targets allowed) is created with a custom
 * header; its settings reveal the secret and set a debounce; a test delivery arrives signed with
 * that secret and the UI shows its status, time and signature.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: webhooks", () => {
  let d: Dashboard;
  let page: Page;
  let receiver: Receiver;
  let csp: string[];

  beforeAll(async () => {
    receiver = await startReceiver();
    d = await startDashboard();
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(async () => {
    await d?.close();
    await receiver?.close();
  });

  it("shows an empty list, then a refused URL next to the URL field", async () => {
    await navLink(page, "Webhooks").click();
    await expect.poll(() => page.getByText("No webhooks yet.").count()).toBe(1);
    await expectAccessible(page, "webhooks (empty)");
    await page.getByRole("link", { name: "New webhook" }).click();
    await page.getByLabel("URL (https)").fill("http://example.com/hook");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const error = page.locator("#wh-url-error");
    await expect.poll(() => error.textContent()).toMatch(/https/);
    expect(await page.getByLabel("URL (https)").getAttribute("aria-invalid")).toBe("true");
  });

  it("creates a webhook to the local HTTPS receiver with a write-only custom header", async () => {
    await page.getByLabel("URL (https)").fill(receiver.url("/hook"));
    await page.getByLabel("content.created").check();
    await page.getByRole("button", { name: "Add or replace a header" }).click();
    await page.getByLabel("Name", { exact: true }).fill("X-Receiver-Token");
    await page.getByLabel("Value", { exact: true }).fill("tok-123");
    await screenshot(page, "webhook-edit");
    await expectAccessible(page, "webhook editor");
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.waitForURL(/\/_\/webhooks\/[0-9a-f-]+\/settings$/);
  });

  it("reveals the secret, saves a debounce, and sends a test delivery the receiver verifies", async () => {
    expect(await page.getByTestId("secret").count()).toBe(0);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const secret = (await page.getByTestId("secret").textContent())!;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    await page.getByLabel(/^Debounce \(milliseconds/).fill("2500");
    await page.getByLabel("Debounce scope").selectOption("webhook");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText("Settings saved.").count()).toBe(1);

    await page.getByRole("button", { name: "Send test delivery" }).click();
    const result = page.getByTestId("test-result");
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain("delivered");
    const [got] = await receiver.waitFor(1);
    const expected = `sha256=${createHmac("sha256", secret).update(got!.raw).digest("hex")}`;
    expect(got!.headers["x-service-signature"]).toBe(expected);
    expect(got!.headers["x-receiver-token"]).toBe("tok-123");
    const shown = await result.textContent();
    expect(shown).toContain("200");
    expect(shown).toMatch(/\d+ ms/);
    expect(shown).toContain(expected);
    await page.getByRole("button", { name: "Hide secret" }).click();
    await screenshot(page, "webhook-settings", true);
    await expectAccessible(page, "webhook settings");

    await page.reload();
    await expect.poll(() => page.getByLabel(/^Debounce \(milliseconds/).inputValue()).toBe("2500");
    expect(await page.getByLabel("Debounce scope").inputValue()).toBe("webhook");
  });

  it("lists the webhook and shows stored header names without their values", async () => {
    await navLink(page, "Webhooks").click();
    await expect.poll(() => page.locator("tbody").textContent()).toContain(receiver.url("/hook"));
    await screenshot(page, "webhooks");
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect.poll(() => page.getByText("X-Receiver-Token").count()).toBe(1);
    expect(await page.content()).not.toContain("tok-123");
    expect(csp).toEqual([]);
  });
});
