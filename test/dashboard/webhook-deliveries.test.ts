/**
 * Opt-in webhook options in a real browser, through the UI only: the two toggles on the webhook
 * editor; Recent Deliveries listing a test delivery, expanding to headers (custom ones by name
 * only), body and response; Redeliver; and secret rotation showing the new secret once, with
 * both secrets signing webhook-signature during the window (checked with `standardwebhooks`).
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: webhook delivery log and secret rotation", () => {
  let d: Dashboard;
  let page: Page;
  let receiver: Receiver;
  let csp: string[];
  let secret: string;

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

  it("creates a webhook with both options on", async () => {
    await navLink(page, "Webhooks").click();
    await page.getByRole("link", { name: "New webhook" }).click();
    await page.getByLabel("URL (https)").fill(receiver.url("/logged"));
    await page.getByLabel("content.created").check();
    await page.getByRole("button", { name: "Add or replace a header" }).click();
    await page.getByLabel("Name", { exact: true }).fill("X-Receiver-Token");
    await page.getByLabel("Value", { exact: true }).fill("tok-never-shown");
    await page.getByLabel("Log deliveries").check();
    await page.getByLabel("Standard Webhooks headers").check();
    await page.getByRole("button", { name: "Create webhook" }).click();
    await page.waitForURL(/\/_\/webhooks\/[0-9a-f-]+\/settings$/);
    await page.getByRole("link", { name: "Edit URL, events and headers" }).click();
    await expect.poll(() => page.getByLabel("Log deliveries").isChecked()).toBe(true);
    expect(await page.getByLabel("Standard Webhooks headers").isChecked()).toBe(true);
    await page.getByRole("link", { name: "Settings, secret and test delivery" }).click();
  });

  it("lists a test delivery in Recent deliveries, expands it, and redelivers it", async () => {
    await page.getByRole("button", { name: "Reveal secret" }).click();
    secret = (await page.getByTestId("secret").textContent())!;
    await page.getByRole("button", { name: "Hide secret" }).click();
    await page.getByRole("button", { name: "Send test delivery" }).click();
    await expect.poll(() => page.getByTestId("test-result").textContent(), { timeout: 15_000 }).toContain("delivered");
    const list = page.getByTestId("deliveries");
    await expect.poll(() => list.locator("li").count(), { timeout: 10_000 }).toBe(1);
    await list.locator("summary").first().click();
    const [got] = await receiver.waitFor(1);
    const item = list.locator("li").first();
    await expect.poll(() => item.textContent()).toContain(String(got!.headers["webhook-id"]));
    const text = (await item.textContent())!;
    expect(text).toContain("200");
    expect(text).toContain(String(got!.headers["x-service-signature"]));
    expect(text).toContain("X-Receiver-Token");
    expect(text).toContain("custom header, value not logged");
    expect(text).toContain('"event": "content.published"'); // the webhook's first event (content.published is ticked by default)
    expect(await page.content()).not.toContain("tok-never-shown");
    await screenshot(page, "webhook-deliveries", true);
    await page.screenshot({ path: "/tmp/hooks-log-deliveries.png", fullPage: true });
    await expectAccessible(page, "webhook recent deliveries");

    await item.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => page.getByText(/Redelivery queued/).count()).toBe(1);
    const [, again] = await receiver.waitFor(2);
    expect(again!.headers["x-service-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(again!.raw).digest("hex")}`);
    expect(() => new Webhook(secret).verify(again!.raw.toString(), again!.headers as Record<string, string>)).not.toThrow();
    await expect.poll(() => list.locator("li").count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => list.locator("li").first().textContent()).toContain("redelivery");
  });

  it("rotates the secret, shows the new one once, and both sign during the window", async () => {
    await page.getByLabel("Window (hours)").fill("1");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("button", { name: "Yes, rotate secret" }).click();
    const shown = page.getByTestId("new-secret");
    await expect.poll(() => shown.count()).toBe(1);
    const fresh = (await shown.textContent())!;
    expect(fresh).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(fresh).not.toBe(secret);
    await expect.poll(() => page.getByTestId("rotation-window").count()).toBe(1);
    await page.screenshot({ path: "/tmp/hooks-log-rotated.png", fullPage: true });
    await expectAccessible(page, "webhook secret rotated");

    await page.getByRole("button", { name: "Send test delivery" }).click();
    const [, , third] = await receiver.waitFor(3, 15_000);
    expect(String(third!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const s of [secret, fresh]) expect(() => new Webhook(s).verify(third!.raw.toString(), third!.headers as Record<string, string>)).not.toThrow();
    expect(third!.headers["x-service-signature"]).toBe(`sha256=${createHmac("sha256", fresh).update(third!.raw).digest("hex")}`);

    await page.reload();
    await expect.poll(() => page.getByTestId("rotation-window").count()).toBe(1);
    expect(await page.getByTestId("new-secret").count()).toBe(0);
    expect(csp).toEqual([]);
  });
});
