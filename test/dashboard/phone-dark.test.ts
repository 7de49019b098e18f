/**
 * Every screen of the dashboard in four modes: light and dark (the system's preference), each on a
 * desktop window and on a 390 px phone. Each screen passes axe (colour contrast included) in each
 * mode; on the phone nothing scrolls sideways, tables are cards whose values carry their column's
 * name, and the navigation folds behind a Menu button. The theme toggle overrides the system,
 * persists across a reload and is itself checked with axe.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { packSite } from "../site/fixtures.js";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
// Long unbroken values are what push a phone layout sideways.
const LONG = "https://example.com/" + "a-very-long-path-segment-without-spaces".repeat(4);

const DESKTOP = { width: 1180, height: 760 };
const PHONE = { width: 390, height: 844 };
type Mode = { name: string; options: BrowserContextOptions; phone: boolean };
const MODES: Mode[] = [
  { name: "light desktop", options: { viewport: DESKTOP, colorScheme: "light" }, phone: false },
  { name: "dark desktop", options: { viewport: DESKTOP, colorScheme: "dark" }, phone: false },
  { name: "light phone", options: { viewport: PHONE, colorScheme: "light", isMobile: true, hasTouch: true }, phone: true },
  { name: "dark phone", options: { viewport: PHONE, colorScheme: "dark", isMobile: true, hasTouch: true }, phone: true },
];

describeBrowser("dashboard in Chromium: a phone and a dark room", () => {
  let d: Dashboard;
  let receiver: Receiver;
  let owner: Caller;
  /** Every route of dashboard/src/router.ts, with seeded data behind each. */
  let screens: { path: string; name: string; table?: boolean }[];
  const contexts: BrowserContext[] = [];

  /** A signed-in page in a fresh browser profile with `options`; its CSP violations collected. */
  async function open(options: BrowserContextOptions): Promise<{ page: Page; csp: string[] }> {
    const context = await d.browser.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    const csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
    return { page, csp };
  }

  /** Goes to a dashboard path inside the app (no reload, so the session is not refreshed each time). */
  async function visit(page: Page, path: string): Promise<void> {
    if (new URL(page.url()).pathname !== `/_${path}`) {
      // The screen shown now; RouterView is keyed by the path, so the next screen is a new element.
      const shown = await page.locator("main.content > *").first().elementHandle();
      await page.evaluate((to) => {
        history.pushState(null, "", to);
        dispatchEvent(new PopStateEvent("popstate", { state: null }));
      }, `/_${path}`);
      await page.waitForFunction((old) => {
        const now = document.querySelector("main.content > *");
        return now !== null && now !== old;
      }, shown);
    }
    await page.locator("main.content h1").first().waitFor();
    await page.waitForLoadState("networkidle");
    // Screens load their data after the heading: wait until no loading state is left.
    await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
  }

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    receiver = await startReceiver();
    d = await startDashboard();
    const base = `http://127.0.0.1:${d.port}`;
    const visitor = callerAt(base);
    owner = callerAt(base, (await visitor.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);

    const fields = [
      { name: "title", type: "string", required: true },
      { name: "link", type: "string" },
      { name: "body", type: "text" },
      { name: "views", type: "number" },
      { name: "featured", type: "boolean" },
      { name: "cover", type: "media" },
    ];
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields })).expectStatus(201);
    const media = (await owner.send("POST", "/api/dashboard/media?filename=cover.png", undefined, { body: PNG, headers: { "content-type": "image/png" } })).expectStatus(201).body;
    const post = (await owner.post("/api/dashboard/collections/posts/entries", { title: "Hello from a phone", link: LONG, body: "Some text.", views: 12, featured: true, cover: media.id })).expectStatus(201).body;
    (await owner.patch(`/api/dashboard/collections/posts/entries/${post.id}`, { _status: "published" })).expectStatus(200);
    (await owner.post("/api/dashboard/collections/posts/entries", { title: "A draft with a rather long title that has to wrap on a narrow screen", views: 3 })).expectStatus(201);
    (await owner.send("POST", "/api/dashboard/media?filename=notes.txt", undefined, { body: "hello", headers: { "content-type": "text/plain" } })).expectStatus(201);

    (await owner.post("/api/dashboard/forms", { slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }, { name: "message", type: "text" }] })).expectStatus(201);
    (await visitor.post("/api/v1/forms/contact/submit", { email: "reader@example.com", message: LONG })).expectStatus(201);
    (await owner.post("/api/dashboard/users", { email: "reader@example.com", password: "reader-password-1", attributes: { plan: "pro" } })).expectStatus(201);
    (await owner.post("/api/dashboard/rules", { name: "pro plan", condition: { any: [{ account: { field: "plan", eq: "pro" } }, { signed_in: true }] } })).expectStatus(201);
    (await owner.post("/api/dashboard/members", { email: "editor@example.com", password: "a long password 123", grants: ["entries:read", "entries:write", "media:read"] })).expectStatus(201);
    (await owner.post("/api/dashboard/keys", { name: "website build", grants: ["entries:read"] })).expectStatus(201);
    const hook = (await owner.post("/api/dashboard/webhooks", { url: receiver.url("/hook"), events: ["content.published", "form.submitted"], log_deliveries: true })).expectStatus(201).body;
    (await owner.post(`/api/dashboard/webhooks/${hook.id}/test`, {})).expectStatus(200);
    for (const version of ["one", "two"]) {
      const body = Buffer.from(await packSite({ "index.html": `<h1>version ${version}</h1>` }));
      (await owner.send("POST", "/api/dashboard/site/deploys", undefined, { body, headers: { "content-type": "application/gzip" } })).expectStatus(201);
    }

    screens = [
      { path: "/", name: "overview" },
      { path: "/collections", name: "collections", table: true },
      { path: "/collections/new", name: "new collection" },
      { path: "/collections/posts/definition", name: "collection definition" },
      { path: "/collections/posts", name: "entries", table: true },
      { path: "/collections/posts/new", name: "new entry" },
      { path: `/collections/posts/${post.id}`, name: "entry editor" },
      { path: "/media", name: "media" },
      { path: "/forms", name: "forms", table: true },
      { path: "/forms/new", name: "new form" },
      { path: "/forms/contact", name: "form and submissions", table: true },
      { path: "/end-users", name: "end users", table: true },
      { path: "/rules", name: "rules", table: true },
      { path: "/site", name: "site", table: true },
      { path: "/access/members", name: "members", table: true },
      { path: "/access/keys", name: "API keys", table: true },
      { path: "/webhooks", name: "webhooks", table: true },
      { path: "/webhooks/new", name: "new webhook" },
      { path: `/webhooks/${hook.id}`, name: "webhook editor" },
      { path: `/webhooks/${hook.id}/settings`, name: "webhook settings" },
      { path: "/identity", name: "identity settings" },
      { path: "/no-such-screen", name: "not found" },
    ];
  }, 90_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await d?.close();
    await receiver?.close();
  });

  for (const mode of MODES) {
    it(`every screen in ${mode.name}: axe${mode.phone ? ", no sideways scroll, tables as cards" : ""}`, async () => {
      const { page, csp } = await open(mode.options);
      const problems: string[] = [];
      const check = async (what: string, fn: () => Promise<unknown>) => {
        try {
          await fn();
        } catch (error) {
          problems.push(`${what}: ${(error as Error).message.split("\n").slice(0, 6).join(" ")}`);
        }
      };
      // The system's preference is followed while the toggle says "System".
      const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const dark = mode.options.colorScheme === "dark";
      expect(bg).toBe(dark ? "rgb(16, 20, 27)" : "rgb(246, 247, 249)");
      expect(await page.getByRole("button", { name: "Theme: System" }).isVisible()).toBe(true);

      for (const screen of screens) {
        await visit(page, screen.path);
        // SVC_SHOT_EVERY_SCREEN=1: a full-page shot of every screen in every mode, to look at them all.
        if (process.env.SVC_SHOT_EVERY_SCREEN === "1") await screenshot(page, `all-${mode.name.replace(" ", "-")}-${screen.name.replace(/ /g, "-")}`, true);
        await check(`axe on ${screen.name}`, () => expectAccessible(page, `${screen.name} (${mode.name})`));
        if (!mode.phone) continue;
        const extra = await overflow(page);
        if (extra > 0) problems.push(`${screen.name} scrolls sideways by ${extra}px`);
        if (screen.table) {
          // A card: the row is a block, its first cell shows its column's name in front of the value.
          const card = await page.locator("main table tbody tr").first().evaluate((tr) => {
            const td = tr.querySelector("td[data-label]:not([data-label=''])") as HTMLElement | null;
            const before = td && getComputedStyle(td, "::before");
            const th = tr.closest("table")!.querySelector("thead th") as HTMLElement;
            return { row: getComputedStyle(tr).display, label: td?.dataset.label, shown: before?.content, display: before?.display, head: getComputedStyle(th).display };
          });
          if (card.row !== "block" || !card.label || card.shown !== JSON.stringify(card.label) || card.display === "none")
            problems.push(`${screen.name}: rows are not cards with labels: ${JSON.stringify(card)}`);
        }
      }
      expect(problems).toEqual([]);
      expect(csp).toEqual([]);
    });
  }

  it("phone: the navigation folds behind Menu, opens, navigates and closes (also on Escape)", async () => {
    const { page } = await open(MODES[2]!.options);
    const menu = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Sections" });
    // The folded navigation is out of the accessibility tree, so it is found by the id Menu controls.
    const controlled = page.locator(`#${await menu.getAttribute("aria-controls")}`);
    expect(await controlled.getAttribute("aria-label")).toBe("Sections");
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    expect(await nav.isVisible()).toBe(true);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "phone-menu");
    await expectAccessible(page, "phone menu open");
    await navLink(page, "Collections").click();
    await page.waitForURL("**/_/collections");
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    await page.getByRole("link", { name: "Entries" }).click();
    await page.waitForURL("**/_/collections/posts");
    await expect.poll(() => page.locator("tbody tr").count()).toBe(2);
    await screenshot(page, "phone-entries", true);

    await menu.click();
    await expect.poll(() => nav.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Menu");

    // The sort buttons of the hidden table heading remain, as chips above the cards.
    await page.getByRole("button", { name: "title" }).click();
    await expect.poll(() => page.getByRole("button", { name: "title ▲" }).count()).toBe(1);
    const entry = page.getByRole("link", { name: "Edit" }).first();
    await entry.click();
    await page.waitForURL(/\/collections\/posts\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByLabel(/^title/).inputValue()).not.toBe("");
    await screenshot(page, "phone-entry-editor", true);
    await visit(page, "/collections/posts/definition");
    await screenshot(page, "phone-collection-definition", true);
    await visit(page, "/access/members");
    await screenshot(page, "phone-members", true);
  });

  it("desktop: no Menu button, the side navigation always shown", async () => {
    const { page } = await open(MODES[0]!.options);
    expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: "Sections" }).isVisible()).toBe(true);
    // Tables stay tables.
    await visit(page, "/collections/posts");
    expect(await page.locator("tbody tr").first().evaluate((tr) => getComputedStyle(tr).display)).toBe("table-row");
  });

  it("the theme toggle cycles System → Light → Dark, overrides the system, and persists across a reload", async () => {
    const { page, csp } = await open(MODES[0]!.options);
    const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const scheme = () => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
    expect(await page.evaluate(() => localStorage.getItem("contentsvc.theme"))).toBeNull();
    await page.getByRole("button", { name: "Theme: System" }).click();
    await page.getByRole("button", { name: "Theme: Light" }).click();
    await page.getByRole("button", { name: "Theme: Dark" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await bg()).toBe("rgb(16, 20, 27)");
    expect(await scheme()).toBe("dark");
    expect(await page.evaluate(() => localStorage.getItem("contentsvc.theme"))).toBe("dark");

    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await page.getByRole("button", { name: "Theme: Dark" }).isVisible()).toBe(true);
    expect(await bg()).toBe("rgb(16, 20, 27)");
    for (const path of ["/", "/collections/posts", "/forms/contact", "/webhooks"]) {
      await visit(page, path);
      await expectAccessible(page, `${path} (dark by the toggle)`);
    }
    await visit(page, "/collections/posts");
    await screenshot(page, "dark-entries");
    await screenshot(page, "dark-entry-list-full", true);
    const editLink = page.getByRole("link", { name: "Edit" }).first();
    await editLink.click();
    await page.waitForURL(/\/collections\/posts\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByLabel(/^title/).inputValue()).not.toBe("");
    await screenshot(page, "dark-entry-editor", true);
    await visit(page, "/access/members");
    await screenshot(page, "dark-members", true);
    await visit(page, "/media");
    await screenshot(page, "dark-media");

    // Back to System: nothing is left in localStorage and the system's light applies again.
    await page.getByRole("button", { name: "Theme: Dark" }).click();
    await page.getByRole("button", { name: "Theme: System" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("contentsvc.theme"))).toBeNull();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await bg()).toBe("rgb(246, 247, 249)");
    expect(csp).toEqual([]);
  });

  it("a chosen light theme wins over a dark system, on the sign-in screen too", async () => {
    const context = await d.browser.newContext(MODES[3]!.options);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(d.url);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe("rgb(16, 20, 27)");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "phone-dark-sign-in");
    await expectAccessible(page, "sign-in (dark phone)");
    await page.getByRole("button", { name: "Theme: System" }).click();
    await page.getByRole("button", { name: "Theme: Light" }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe("rgb(246, 247, 249)");
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("light");
    await expectAccessible(page, "sign-in (light chosen on a dark phone)");
    await page.reload();
    await page.getByRole("button", { name: "Theme: Light" }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe("rgb(246, 247, 249)");
  });
});
