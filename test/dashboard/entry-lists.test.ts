/**
 * Entry lists as strong as the API, in a real browser, over 1,000 entries: two filters with
 * operators (the count shown is the API's), sort by a column (aria-sort), everything kept in the
 * URL across a reload, a refused filter explained beside its row while the table stays, bulk
 * publish of 20 drafts and bulk delete (one question naming the count, a summary naming the
 * failures), the Overview's counts and recent changes, and the list at 390 px. axe and a
 * screenshot per screen.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, expectAccessible, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

const N = 1000;
const LIST = "/api/dashboard/collections/articles/entries";

describeBrowser("dashboard in Chromium: entry lists", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  let owner: Caller;

  /** meta.total of the API for a query string. */
  const apiTotal = async (query: string) => (await owner.get(`${LIST}?limit=0&${query}`)).expectStatus(200).body.meta.total as number;
  const shownTotal = async () => Number.parseInt((await page.getByTestId("total").textContent()) ?? "", 10);
  const firstColumn = (name: string) => page.locator(`tbody td[data-label="${name}"]`).allTextContents();

  beforeAll(async () => {
    d = await startDashboard();
    const site = callerAt(`http://127.0.0.1:${d.port}`);
    owner = callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    const fields = [
      { name: "title", type: "string", required: true },
      { name: "views", type: "number" },
      { name: "featured", type: "boolean" },
    ];
    (await owner.post("/api/dashboard/collections", { name: "articles", fields })).expectStatus(201);
    // Every third entry published, the rest drafts; parallel batches keep seeding short.
    for (let i = 0; i < N; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, N - i) }, async (_, j) => {
          const n = i + j;
          (await owner.post(LIST, { title: `Article ${n}`, views: n, featured: n % 2 === 0, _status: n % 3 === 0 ? "published" : "draft" })).expectStatus(201);
        }),
      );
    }
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 180_000);
  afterAll(() => d?.close());

  it("filters by two fields with operators; the count shown is the API's", async () => {
    await page.goto(`${d.url}collections/articles`);
    await expect.poll(shownTotal).toBe(N);
    await page.locator("#e-filter-field").selectOption("views");
    await page.locator("#e-filter-op").selectOption("gte");
    await page.getByLabel("is at least", { exact: true }).fill("500");
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.locator("#e-filter-field-2").selectOption("title");
    await page.locator("#e-filter-op-2").selectOption("contains");
    await page.locator("#e-filter-value-2").fill("9");
    await page.getByRole("button", { name: "Apply" }).click();
    const expected = await apiTotal("filter[views][gte]=500&filter[title][contains]=9");
    expect(expected).toBeGreaterThan(25);
    expect(expected).toBeLessThan(N / 2);
    await expect.poll(shownTotal).toBe(expected);
    const url = decodeURIComponent(page.url());
    expect(url).toContain("f=views.gte.500");
    expect(url).toContain("f=title.contains.9");
    for (const views of await firstColumn("views")) expect(Number(views)).toBeGreaterThanOrEqual(500);
    for (const title of await firstColumn("title")) expect(title).toContain("9");
  });

  it("offers each field type's operators and a matching value input", async () => {
    await page.locator("#e-filter-field").selectOption("featured");
    expect(await page.locator("#e-filter-op option").allTextContents()).toEqual(["equals", "does not equal", "is empty"]);
    expect(await page.locator("#e-filter-value").evaluate((el) => el.tagName)).toBe("SELECT");
    await page.locator("#e-filter-field").selectOption("_created_at");
    expect(await page.locator("#e-filter-value").getAttribute("type")).toBe("datetime-local");
    expect(await page.locator("#e-filter-op option").allTextContents()).not.toContain("contains");
    await page.locator("#e-filter-field").selectOption("views");
    expect(await page.locator("#e-filter-value").getAttribute("type")).toBe("number");
    await page.locator("#e-filter-op").selectOption("gte");
    await page.locator("#e-filter-value").fill("500");
  });

  it("sorts by a column both ways, marked with aria-sort", async () => {
    const views = page.getByRole("columnheader", { name: /^views/ });
    await views.getByRole("button").click();
    await expect.poll(() => views.getAttribute("aria-sort")).toBe("ascending");
    await expect.poll(async () => (await firstColumn("views"))[0]).toBe("509");
    await views.getByRole("button").click();
    await expect.poll(() => views.getAttribute("aria-sort")).toBe("descending");
    await expect.poll(async () => (await firstColumn("views"))[0]).toBe("999");
    const shown = (await firstColumn("views")).map(Number);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(decodeURIComponent(page.url())).toContain("sort=-views");
    await screenshot(page, "entry-list-filters");
    await expectAccessible(page, "entry list with filters");
  });

  it("keeps filters, sort and page across a reload", async () => {
    const first = await firstColumn("views");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => page.url()).toContain("page=2");
    // The URL changes before page 2's rows arrive.
    await expect.poll(() => firstColumn("views")).not.toEqual(first);
    const second = await firstColumn("views");
    await page.reload();
    await expect.poll(shownTotal).toBe(await apiTotal("filter[views][gte]=500&filter[title][contains]=9"));
    expect(await page.locator("#e-filter-field").inputValue()).toBe("views");
    expect(await page.locator("#e-filter-op").inputValue()).toBe("gte");
    expect(await page.locator("#e-filter-value").inputValue()).toBe("500");
    expect(await page.locator("#e-filter-field-2").inputValue()).toBe("title");
    expect(await page.locator("#e-filter-value-2").inputValue()).toBe("9");
    expect(await page.getByRole("columnheader", { name: /^views/ }).getAttribute("aria-sort")).toBe("descending");
    await expect.poll(() => firstColumn("views")).toEqual(second);
  });

  it("explains a refused filter beside its row and keeps the table", async () => {
    const before = await firstColumn("views");
    const long = "x".repeat(101);
    await page.locator("#e-filter-value-2").fill(long);
    await page.getByRole("button", { name: "Apply" }).click();
    const message = page.locator("#e-filter-value-2-error");
    await expect.poll(() => message.textContent()).toBe("filter[title][contains]: contains takes at most 100 characters (got 101)");
    expect(await page.locator("#e-filter-value-error").count()).toBe(0);
    expect(await firstColumn("views")).toEqual(before);
    expect(await page.getByRole("table").count()).toBe(1);
    expect(await page.locator("#e-filter-value-2").getAttribute("aria-invalid")).toBe("true");

    // A number list with text in it: the first row's message, the second row fixed.
    await page.locator("#e-filter-value-2").fill("9");
    await page.locator("#e-filter-op").selectOption("in");
    await page.getByLabel(/^is one of/).fill("500,abc");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.locator("#e-filter-value-error").textContent()).toBe("filter[views][in]: views is a number field");
    expect(await page.locator("#e-filter-value-2-error").count()).toBe(0);
    expect(await page.getByRole("table").count()).toBe(1);
    await screenshot(page, "entry-list-refused-filter");
    await expectAccessible(page, "entry list with a refused filter");

    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(shownTotal).toBe(N);
    expect(await page.locator("#e-filter-value-error").count()).toBe(0);
  });

  it("searches the title field", async () => {
    await expect.poll(() => page.getByLabel("Search title").count()).toBe(1);
    await page.getByLabel("Search title").fill("Article 12");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(shownTotal).toBe(await apiTotal("filter[title][contains]=Article 12"));
    expect(await shownTotal()).toBe(11); // 12 and 120-129
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(shownTotal).toBe(N);
  });

  it("bulk-publishes 20 drafts after one question naming 20; the API reports them published", async () => {
    await page.locator("#e-status").selectOption("draft");
    const drafts = await apiTotal("status=draft");
    await expect.poll(shownTotal).toBe(drafts);
    const boxes = page.locator("tbody input[type=checkbox]");
    for (let i = 0; i < 20; i++) await boxes.nth(i).check();
    await expect.poll(() => page.getByTestId("selected-count").textContent()).toBe("20 selected");
    const titles = (await firstColumn("title")).slice(0, 20);
    await page.getByRole("region", { name: "Bulk actions" }).getByRole("button", { name: "Publish", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Publish" }).textContent()).toBe("Publish 20 entries?");
    await screenshot(page, "entry-list-bulk");
    await expectAccessible(page, "bulk toolbar");
    await page.getByRole("button", { name: "Yes, publish 20" }).click();
    await expect.poll(() => page.getByTestId("bulk-summary").textContent()).toContain("Published 20 entries.");
    await expect.poll(shownTotal).toBe(drafts - 20);
    const published = (await owner.get(`${LIST}?status=published&limit=100&sort=-_updated_at`)).expectStatus(200).body.data.map((e: { title: string }) => e.title);
    expect(published.slice(0, 20).sort()).toEqual([...titles].sort());
    expect(await apiTotal("status=draft")).toBe(drafts - 20);
  });

  it("bulk-deletes a page after one question naming the count, and names the entry that failed", async () => {
    await page.getByLabel("Select all entries on this page").check();
    await expect.poll(() => page.getByTestId("selected-count").textContent()).toBe("25 selected");
    const ids = await page.locator("tbody tr a").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href.split("/").pop()!));
    expect(ids).toHaveLength(25);
    const total = await apiTotal("");
    await page.getByRole("region", { name: "Bulk actions" }).getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Delete" }).textContent()).toBe("Delete 25 entries?");
    // One of them goes meanwhile: the summary names it instead of stopping silently.
    const gone = (await owner.delete(`${LIST}/${ids[3]}`)).expectStatus(200).body;
    await page.getByRole("button", { name: "Yes, delete 25" }).click();
    const summary = page.getByTestId("bulk-summary");
    await expect.poll(() => summary.textContent()).toContain("Deleted 24 entries. 1 failed:");
    expect(await summary.locator("li").textContent()).toBe(`${gone.title}: Entry not found`);
    expect(await apiTotal("")).toBe(total - 25);
    for (const id of ids) (await owner.get(`${LIST}/${id}`)).expectStatus(404);
    await expectAccessible(page, "bulk summary");
  });

  it("the Overview shows each collection's counts and the recent changes", async () => {
    await page.goto(d.url);
    const counts = page.getByTestId("overview-collections");
    const row = counts.getByRole("row", { name: /articles/ });
    const published = await apiTotal("status=published");
    const drafts = await apiTotal("status=draft");
    await expect.poll(() => row.locator("td").allTextContents()).toEqual(["articles", String(published), String(drafts)]);
    const recent = page.getByTestId("overview-recent");
    const newest = (await owner.get(`${LIST}?limit=1&sort=-_updated_at`)).expectStatus(200).body.data[0];
    await expect.poll(() => recent.locator("tbody tr").count()).toBe(10);
    expect(await recent.locator("tbody tr").first().locator("td").allTextContents()).toEqual([newest.title, "articles", newest._status, expect.any(String)]);
    await recent.getByRole("link", { name: newest.title }).click();
    await page.waitForURL(`**/collections/articles/${newest.id}`);
    await page.goBack();
    await screenshot(page, "overview-counts");
    await expectAccessible(page, "overview");
  });

  it("a page answered late never replaces the page the URL asks for", async () => {
    await page.goto(`${d.url}collections/articles?sort=-views`);
    await expect.poll(shownTotal).toBe(await apiTotal(""));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    await page.route("**/api/dashboard/collections/articles/entries?*", async (route) => {
      if (new URL(route.request().url()).searchParams.get("offset") === "25") {
        held += 1;
        await gate;
      }
      await route.fallback();
    });
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => held).toBe(1);
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => page.url()).toContain("page=3");
    const third = (await owner.get(`${LIST}?sort=-views&limit=25&offset=50`)).expectStatus(200).body.data.map((e: { views: number }) => String(e.views));
    await expect.poll(() => firstColumn("views")).toEqual(third);
    release();
    await page.waitForTimeout(300);
    await page.unroute("**/api/dashboard/collections/articles/entries?*");
    expect(await firstColumn("views")).toEqual(third);
  });

  it("a filter row being written survives sort and paging; a new field's kind of value starts empty; ?q= alone searches", async () => {
    await page.goto(`${d.url}collections/articles`);
    await expect.poll(shownTotal).toBe(await apiTotal(""));
    await page.locator("#e-filter-field").selectOption("views");
    await page.locator("#e-filter-op").selectOption("gte");
    await page.locator("#e-filter-value").fill("700");
    await page.getByRole("columnheader", { name: /^views/ }).getByRole("button").click();
    await expect.poll(() => page.url()).toContain("sort=views");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => page.url()).toContain("page=2");
    expect(await page.locator("#e-filter-field").inputValue()).toBe("views");
    expect(await page.locator("#e-filter-value").inputValue()).toBe("700");

    // Text typed for a text field is not carried into a number field, where it could not show.
    await page.locator("#e-filter-field").selectOption("title");
    await page.locator("#e-filter-op").selectOption("eq");
    await page.locator("#e-filter-value").fill("abc");
    await page.locator("#e-filter-field").selectOption("views");
    expect(await page.locator("#e-filter-value").inputValue()).toBe("");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForTimeout(300);
    expect(decodeURIComponent(page.url())).not.toContain("views.eq.abc");
    expect(await page.locator("#e-filter-value-error").count()).toBe(0);

    // A date input holding a year JavaScript cannot read says so instead of failing silently.
    await page.locator("#e-filter-field").selectOption("_created_at");
    const message = await page.locator("#e-filter-value").evaluate((el: HTMLInputElement) => {
      el.value = "20000-01-01T00:00";
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return el.validationMessage;
    });
    expect(message).toMatch(/^Not a date that can be saved/);

    await page.goto(`${d.url}collections/articles?q=${encodeURIComponent("Article 12")}`);
    await expect.poll(shownTotal).toBe(11);
    expect(await page.getByLabel("Search title").inputValue()).toBe("Article 12");
  });

  it("fits a 390 px wide screen: the filter rows wrap, nothing scrolls sideways", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${d.url}collections/articles?f=views.gte.500&f=title.contains.9&sort=-views`);
    await expect.poll(shownTotal).toBe(await apiTotal("filter[views][gte]=500&filter[title][contains]=9"));
    const form = await page.getByRole("form", { name: "Filters" }).boundingBox();
    expect(form!.x + form!.width).toBeLessThanOrEqual(390);
    for (const id of ["#e-filter-value", "#e-filter-value-2", "#e-search"]) {
      const box = await page.locator(id).boundingBox();
      expect(box!.x + box!.width, id).toBeLessThanOrEqual(390);
    }
    // The header's "select all" stays reachable when the header row turns into sort chips.
    expect(await page.getByLabel("Select all entries on this page").isVisible()).toBe(true);
    await screenshot(page, "entry-list-phone");
    await page.setViewportSize({ width: 1180, height: 760 });
    expect(csp).toEqual([]);
  });
});
