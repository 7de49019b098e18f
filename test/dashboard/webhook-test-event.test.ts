/**
 * The test delivery's event in a real browser: beside "Send test delivery" a select offers the
 * webhook's own events, the first chosen; the receiver gets the chosen one, never an event the
 * webhook is not subscribed to.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";
import { describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: test delivery event", () => {
  let d: Dashboard;
  let page: Page;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    d = await startDashboard();
    page = await (await d.context()).newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(async () => {
    await d?.close();
    await receiver?.close();
  });

  const delivered = async () => {
    const before = receiver.requests.length;
    await page.getByRole("button", { name: "Send test delivery" }).click();
    await expect.poll(() => page.getByTestId("test-result").textContent(), { timeout: 15_000 }).toContain("delivered");
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    return JSON.parse(got!.raw.toString()).event as string;
  };

  it("offers only the webhook's events, sends the first by default and the one chosen", async () => {
    await navLink(page, "Webhooks").click();
    await page.getByRole("link", { name: "New webhook" }).click();
    await page.getByLabel("URL (https)").fill(receiver.url("/published"));
    // The editor starts with content.published checked; add content.deleted.
    expect(await page.getByLabel("content.published").isChecked()).toBe(true);
    await page.getByLabel("content.deleted").check();
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.waitForURL(/\/_\/webhooks\/[0-9a-f-]+\/settings$/);

    const select = page.getByLabel("Event", { exact: true });
    await expect.poll(() => select.locator("option").allTextContents()).toEqual(["content.published", "content.deleted"]);
    expect(await select.inputValue()).toBe("content.published");
    expect(await delivered()).toBe("content.published");

    await select.selectOption("content.deleted");
    expect(await delivered()).toBe("content.deleted");
    await screenshot(page, "webhook-test-event", true);
    await expectAccessible(page, "webhook settings with the test event");
  });
});
