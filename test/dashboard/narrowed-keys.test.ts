/**
 * The key dialog's narrowing in a real browser: the owner limits a new entries:read key to one
 * collection and to published entries; the shown value then reads that collection's published
 * entries and nothing else (no draft, no other collection), and the key table says so. Also at
 * the phone width, where the choices wrap.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, expectAccessible, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: narrowed API keys", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  let api: (token?: string) => Caller;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    d = await startDashboard();
    api = (token?: string) => callerAt(`http://127.0.0.1:${d.port}`, token);
    const owner = api((await api().post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    for (const name of ["articles", "payroll"]) {
      (await owner.post("/api/dashboard/collections", { name, access: "private", fields: [{ name: "title", type: "string", required: true }] })).expectStatus(201);
    }
    const entry = async (label: string, collection: string, json: object) =>
      (ids[label] = (await owner.post(`/api/dashboard/collections/${collection}/entries`, json)).expectStatus(201).body.id);
    await entry("live", "articles", { title: "Launched", _status: "published" });
    await entry("draft", "articles", { title: "Embargoed", _status: "draft" });
    await entry("payroll", "payroll", { title: "Salaries", _status: "published" });
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  it("creates a key limited to one collection and published entries; its value reads exactly that", async () => {
    await page.goto(`${d.url}access/keys`);
    await page.getByLabel("Name").fill("website");
    await page.getByLabel("entries:read").check();
    // The risk of an unlimited entries:read key is stated where the owner chooses.
    expect(await page.getByTestId("key-risk-note").textContent()).toMatch(/reads every draft of every private collection through the\s+management API/);
    await page.getByLabel("Only the collections ticked below").check();
    await page.getByLabel("articles", { exact: true }).check();
    await page.getByLabel("Published entries only").check();
    const help = await page.getByLabel("Published entries only").getAttribute("aria-describedby");
    expect(help).toContain("key-risk-note");
    await screenshot(page, "api-key-narrowing", true);
    await expectAccessible(page, "API key narrowing");

    await page.getByRole("button", { name: "Create key" }).click();
    const value = (await page.getByTestId("key-value").textContent())!;
    expect(value).toMatch(/^pk_[0-9a-f]{64}$/);
    await expect.poll(() => page.getByRole("row", { name: /website/ }).textContent()).toContain("articles; published entries only");
    await screenshot(page, "api-key-narrowed-created");
    await expectAccessible(page, "API key narrowed created");

    const key = api(value);
    const list = (await key.get("/api/dashboard/collections/articles/entries")).expectStatus(200).body;
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([ids.live]);
    (await key.get(`/api/dashboard/collections/articles/entries/${ids.draft}`)).expectStatus(404);
    (await key.get("/api/dashboard/collections/payroll/entries")).expectStatus(404);
    (await key.get("/api/v1/payroll")).expectStatus(403);
    expect((await key.get("/api/v1/articles")).expectStatus(200).body.data).toHaveLength(1);
    expect((await key.get("/api/dashboard/collections")).expectStatus(200).body.data.map((c: { name: string }) => c.name)).toEqual(["articles"]);
    expect(csp).toEqual([]);
  });

  it("asks for a collection when limiting to none; the narrowing wraps within a 390 px width", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${d.url}access/keys`);
    await page.getByLabel("Name").fill("nothing ticked");
    await page.getByLabel("entries:read").check();
    await page.getByLabel("Only the collections ticked below").check();
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("Tick at least one collection, or choose All collections.");
    expect(await page.getByTestId("key-value").count()).toBe(0);
    // The narrowing's own parts wrap inside the phone's width (tables and the shell are the phone layout's).
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll("#key-risk-note, fieldset.picker, fieldset.picker *, #key-published-only-help, label:has(#key-published-only)"))
        .filter((e) => e.getBoundingClientRect().right > 390)
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 30)}`),
    );
    expect(wide).toEqual([]);
    await page.getByLabel("payroll", { exact: true }).scrollIntoViewIfNeeded();
    // axe runs on this form at the desktop width above; at 390 px the shell's own header is the phone layout's.
    await screenshot(page, "api-key-narrowing-phone", true);
    expect(csp).toEqual([]);
  });
});
