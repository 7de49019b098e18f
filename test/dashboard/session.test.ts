/**
 * The dashboard's session when its refresh token is refused, in a real browser: a sign-in the
 * server revoked (its refresh token replayed) or that expired brings the sign-in screen with a
 * notice on the next call or on reload, not a broken screen. A second tab holding a copy of the
 * tab's refresh token (as a duplicated tab does) never presents a spent token: the tab that
 * rotates tells the other, which takes the new pair, so both stay signed in across reloads.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { requestAt } from "../helpers/server.js";
import { describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

const REFRESH_KEY = "contentsvc.refresh";

describeBrowser("dashboard in Chromium: a refused refresh and two tabs", () => {
  let d: Dashboard;
  beforeAll(async () => {
    d = await startDashboard();
  }, 60_000);
  afterAll(() => d?.close());

  const stored = (page: Page) => page.evaluate((key) => sessionStorage.getItem(key), REFRESH_KEY);
  const refreshAt = (token: string) =>
    requestAt(`http://127.0.0.1:${d.port}`, "/api/dashboard/refresh", { method: "POST", host: "admin.localhost", json: { refresh_token: token } });
  const signInScreen = (page: Page) => page.getByRole("heading", { name: "Sign in" });
  const signedIn = async (context: BrowserContext) => {
    const page = await context.newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    return page;
  };

  it("a revoked sign-in leads to the sign-in screen with a notice at the next call, and after reload", async () => {
    const page = await signedIn(await d.context());
    const token = (await stored(page))!;
    expect(token).toMatch(/^dr_/);
    // Someone replays the tab's refresh token: the first use rotates it, the second revokes the sign-in.
    expect((await refreshAt(token)).status).toBe(200);
    expect((await refreshAt(token)).status).toBe(401);

    await navLink(page, "Webhooks").click();
    await signInScreen(page).waitFor();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Your session has ended");
    expect(await stored(page)).toBeNull();
    await expectAccessible(page, "sign-in after the session ended");
    await screenshot(page, "session-ended");

    await page.reload();
    await signInScreen(page).waitFor();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    expect(await page.getByText("Your session has ended").count()).toBe(0);
  });

  it("a tab whose stored refresh token was revoked opens on the sign-in screen", async () => {
    const page = await signedIn(await d.context());
    const token = (await stored(page))!;
    await refreshAt(token);
    await refreshAt(token);
    await page.reload();
    await signInScreen(page).waitFor();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Your session has ended");
  });

  it("a second tab with a copy of the refresh token: neither tab ever presents a spent token", async () => {
    const context = await d.context();
    const first = await signedIn(context);
    const copied = (await stored(first))!;
    // A duplicated tab starts with a copy of the first tab's sessionStorage.
    const second = await context.newPage();
    // (Only into the tab's first document: a reload keeps what the tab stored since.)
    await second.addInitScript(([key, value]) => sessionStorage.getItem(key) ?? sessionStorage.setItem(key, value), [REFRESH_KEY, copied] as const);
    await second.goto(d.url);
    await second.getByRole("button", { name: "Sign out" }).waitFor();
    const rotated = (await stored(second))!;
    expect(rotated).not.toBe(copied);
    // The first tab took the second's pair instead of keeping the spent token.
    await expect.poll(() => stored(first)).toBe(rotated);

    await first.reload();
    await first.getByRole("button", { name: "Sign out" }).waitFor();
    await expect.poll(() => stored(second)).toBe(await stored(first));
    await second.reload();
    await second.getByRole("button", { name: "Sign out" }).waitFor();
    await navLink(first, "Webhooks").click();
    await first.getByRole("heading", { name: "Webhooks" }).waitFor();
    expect(await signInScreen(first).count()).toBe(0);
  });
});
