/**
 * The dashboard's session when its refresh is refused, in a real browser: a sign-in the server
 * revoked (its refresh cookie replayed) or that expired brings the sign-in screen with a notice on
 * the next call or on reload, not a broken screen. (Tabs sharing the session: session-tabs.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { requestAt } from "../helpers/server.js";
import { describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: a refused refresh", () => {
  let d: Dashboard;
  beforeAll(async () => {
    d = await startDashboard();
  }, 60_000);
  afterAll(() => d?.close());

  const stored = async (page: Page) => (await page.context().cookies()).find((c) => c.name === "svc_dashboard_refresh")?.value;
  // Someone holding a copy of the cookie's token presents it in the API's body form, which has no
  // reuse grace (the cookie form forgives its last token for 20 s: a lost answer, not theft).
  const refreshAt = (token: string) =>
    requestAt(`http://127.0.0.1:${d.port}`, "/api/dashboard/refresh", {
      method: "POST",
      host: `admin.localhost:${d.port}`,
      json: { refresh_token: token },
    });
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
    expect(await stored(page)).toBeUndefined();
    await expectAccessible(page, "sign-in after the session ended");
    await screenshot(page, "session-ended");

    await page.reload();
    await signInScreen(page).waitFor();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    expect(await page.getByText("Your session has ended").count()).toBe(0);
  });

  it("a tab whose refresh cookie was revoked opens on the sign-in screen", async () => {
    const page = await signedIn(await d.context());
    const token = (await stored(page))!;
    await refreshAt(token);
    await refreshAt(token);
    await page.reload();
    await signInScreen(page).waitFor();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Your session has ended");
  });
});
