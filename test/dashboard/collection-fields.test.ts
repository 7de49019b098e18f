/**
 * The collection editor's field changes in Chromium, through PATCH: a saved field without values
 * goes at once; one holding values shows how many and goes only once confirmed (the values are
 * then gone); a changed field name is a rename, so the stored values move with it. A refusal that
 * names a field (`{error, field}`) is shown beside that field, which is marked invalid.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { describeBrowser, expectAccessible, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: collection field changes", () => {
  let d: Dashboard;
  let page: Page;
  let owner: Caller;
  const fieldNames = async () => (await owner.get("/api/dashboard/collections/notes")).expectStatus(200).body.fields.map((f: { name: string }) => f.name);

  beforeAll(async () => {
    d = await startDashboard();
    const base = `http://127.0.0.1:${d.port}`;
    owner = callerAt(base, (await callerAt(base).post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    const fields = [{ name: "title", type: "string" }, { name: "label", type: "string" }, { name: "extra", type: "json" }];
    (await owner.post("/api/dashboard/collections", { name: "notes", fields })).expectStatus(201);
    for (const e of [{ title: "a", label: "x" }, { title: "b", label: "y", _status: "published" }]) {
      (await owner.post("/api/dashboard/collections/notes/entries", e)).expectStatus(201);
    }
    page = await (await d.context()).newPage();
    await signIn(page, d.url, d.owner.email, d.owner.password);
    await page.goto(`${d.url}collections/notes/definition`);
    await page.getByRole("heading", { name: "Collection notes" }).waitFor();
  }, 60_000);
  afterAll(() => d?.close());

  it("removes a saved field without values at once", async () => {
    await page.getByRole("button", { name: "Remove field extra" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Removed field extra." }).count()).toBe(1);
    expect(await fieldNames()).toEqual(["title", "label"]);
  });

  it("a field holding values: shows the count, keeps it on Keep, drops the values only when confirmed", async () => {
    await page.getByRole("button", { name: "Remove field label" }).click();
    const question = page.getByRole("alert").filter({ hasText: "Field label holds 2 stored values. Removing it drops them for good." });
    await question.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Drop 2 values and remove");
    await screenshot(page, "collection-drop-field");
    await expectAccessible(page, "collection editor: confirm a drop");
    expect(await fieldNames()).toEqual(["title", "label"]);

    await page.getByRole("button", { name: "Keep field" }).click();
    expect(await question.count()).toBe(0);
    expect(await fieldNames()).toEqual(["title", "label"]);

    await page.getByRole("button", { name: "Remove field label" }).click();
    await page.getByRole("button", { name: "Drop 2 values and remove" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Removed field label and dropped 2 stored values." }).count()).toBe(1);
    expect(await page.getByLabel("Field name").count()).toBe(1);
    expect(await fieldNames()).toEqual(["title"]);
    const entries = (await owner.get("/api/dashboard/collections/notes/entries")).expectStatus(200).body.data as Record<string, unknown>[];
    expect(entries.some((e) => Object.hasOwn(e, "label"))).toBe(false);
  });

  it("a changed field name is saved as a rename: the values move", async () => {
    await page.getByLabel("Field name").fill("headline");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    expect(await fieldNames()).toEqual(["headline"]);
    const entries = (await owner.get("/api/dashboard/collections/notes/entries?sort=headline")).expectStatus(200).body.data as Record<string, unknown>[];
    expect(entries.map((e) => e.headline)).toEqual(["a", "b"]);
  });

  it("shows a refusal beside the field it names: the collection's name, then a field row's name", async () => {
    await page.goto(`${d.url}collections/new`);
    await page.getByRole("heading", { name: "New collection" }).waitFor();
    const name = page.getByLabel("Name", { exact: true });
    await name.fill("Bad-Name");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByLabel("Field name").fill("title");
    await page.getByRole("button", { name: "Create collection" }).click();
    const nameError = page.locator("#err-name");
    await expect.poll(() => nameError.textContent()).toMatch(/^name: must be 1-63 lowercase letters/);
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect((await name.getAttribute("aria-describedby"))!.split(" ")).toContain("err-name");
    // Beside the field, not repeated with the form.
    expect(await page.getByRole("alert").count()).toBe(1);
    await screenshot(page, "collection-field-error");
    await expectAccessible(page, "collection editor: a refused name");

    await name.fill("drafts");
    const fieldName = page.getByLabel("Field name");
    await fieldName.fill("_secret");
    await page.getByRole("button", { name: "Create collection" }).click();
    await expect.poll(() => page.locator("#err-fields-0-name").textContent()).toMatch(/reserved/);
    expect(await fieldName.getAttribute("aria-invalid")).toBe("true");
    expect(await fieldName.getAttribute("aria-describedby")).toBe("err-fields-0-name");
    expect(await name.getAttribute("aria-invalid")).toBe("false");
    expect(await page.locator("#err-name").count()).toBe(0);
  });
});
