/**
 * Pickers that scale, in a real browser: with 1,000 tags and 200 images an editor finds and picks
 * the oldest tag (by search and by paging) and the oldest image, by mouse and by keyboard alone;
 * chosen values show their labels whatever page they are on; the media library pages through
 * every asset; deleting an image that an entry uses warns with the count, "Delete anyway" deletes
 * it, and the entry editor shows the dangling reference and lets the editor clear it and save.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

// A 2×2 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
const TAGS = 1000;
const IMAGES = 200;
const tagName = (i: number) => `tag ${String(i).padStart(4, "0")}`;
const imageName = (i: number) => `img-${String(i).padStart(3, "0")}.png`;

/** Runs `make(i)` for i in 2..count, `batch` at a time (item 1 is made first, alone, so it is the oldest). */
async function inBatches(count: number, batch: number, make: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 2; start <= count; start += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - start + 1) }, (_, k) => make(start + k)));
  }
}

describeBrowser("dashboard in Chromium: pickers and the media library at scale", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  let owner: Caller;
  const oldest = { tag: "", image: "" };
  const ids = { image2: "" };

  const group = (name: RegExp) => page.getByRole("group", { name });
  const chosenLabels = (name: RegExp) => group(name).locator(".chosen .label").allTextContents();
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? "");
  const newPost = async () => {
    await page.goto(`${d.url}collections/posts/new`);
    await page.getByRole("button", { name: "Choose tag…" }).waitFor();
  };

  beforeAll(async () => {
    d = await startDashboard();
    const site = callerAt(`http://127.0.0.1:${d.port}`);
    owner = callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    (await owner.post("/api/dashboard/collections", { name: "tags", fields: [{ name: "label", type: "string" }] })).expectStatus(201);
    const fields = [
      { name: "title", type: "string" },
      { name: "tag", type: "relation", collection: "tags" },
      { name: "tags", type: "relations", collection: "tags" },
      { name: "photo", type: "media" },
    ];
    (await owner.post("/api/dashboard/collections", { name: "posts", fields })).expectStatus(201);
    const tag = async (i: number) => (await owner.post("/api/dashboard/collections/tags/entries", { label: tagName(i) })).expectStatus(201).body.id as string;
    const image = async (i: number) =>
      (await owner.post(`/api/dashboard/media?filename=${imageName(i)}`, undefined, { body: PNG, headers: { "content-type": "image/png" } })).expectStatus(201).body.id as string;
    oldest.tag = await tag(1);
    oldest.image = await image(1);
    // Created after the oldest, so "newest first" puts the oldest on the last page.
    await new Promise((r) => setTimeout(r, 5));
    await inBatches(TAGS, 25, tag);
    await inBatches(IMAGES, 20, async (i) => {
      const id = await image(i);
      if (i === 2) ids.image2 = id;
    });
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 300_000);
  afterAll(() => d?.close());

  it("picks the oldest tag by search and by paging and the oldest image by search; after saving and reloading the labels show", async () => {
    await newPost();
    await page.getByLabel(/^title/).fill("Picked with the mouse");

    // One relation: search finds the oldest of 1,000.
    await page.getByRole("button", { name: "Choose tag…" }).click();
    const tagDialog = page.getByRole("dialog", { name: "Choose tag", exact: true });
    await expect.poll(() => tagDialog.getByTestId("range").textContent()).toBe("1–20 of 1,000");
    await screenshot(page, "entry-picker");
    await expectAccessible(page, "entry picker dialog");
    await tagDialog.getByLabel("Search by label").fill(tagName(1));
    await expect.poll(() => tagDialog.getByRole("option").allTextContents()).toEqual([expect.stringContaining(tagName(1))]);
    await tagDialog.getByRole("option", { name: new RegExp(tagName(1)) }).click();
    await expect.poll(() => tagDialog.isVisible()).toBe(false);
    await expect.poll(() => chosenLabels(/^tag \(/)).toEqual([tagName(1)]);

    // Many relations: the last page holds the oldest; a search adds another; both stay ticked.
    await page.getByRole("button", { name: "Choose tags…" }).click();
    const tagsDialog = page.getByRole("dialog", { name: "Choose tags", exact: true });
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("1–20 of 1,000");
    await tagsDialog.getByRole("button", { name: "Last" }).click();
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("981–1,000 of 1,000");
    const last = tagsDialog.getByRole("option").last();
    expect(await last.textContent()).toContain(tagName(1));
    await last.click();
    expect(await last.getAttribute("aria-selected")).toBe("true");
    await tagsDialog.getByLabel("Search by label").fill(tagName(500));
    await expect.poll(() => tagsDialog.getByRole("option").allTextContents()).toEqual([expect.stringContaining(tagName(500))]);
    await tagsDialog.getByRole("option").first().click();
    expect(await tagsDialog.getByText("2 chosen").count()).toBe(1);
    await tagsDialog.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => chosenLabels(/^tags \(/)).toEqual([tagName(1), tagName(500)]);

    // Media: a search by filename finds the oldest of 200 images.
    await page.getByRole("button", { name: "Choose photo…" }).click();
    const photoDialog = page.getByRole("dialog", { name: "Choose photo", exact: true });
    await expect.poll(() => photoDialog.getByTestId("range").textContent()).toBe("1–24 of 200");
    await expect.poll(() => photoDialog.locator("img").first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await screenshot(page, "media-picker");
    await expectAccessible(page, "media picker dialog");
    await photoDialog.getByLabel("Search by filename").fill("IMG-001");
    await expect.poll(() => photoDialog.getByRole("option").count()).toBe(1);
    await photoDialog.getByRole("option", { name: new RegExp(imageName(1)) }).click();
    await expect.poll(() => photoDialog.isVisible()).toBe(false);
    await expect.poll(() => chosenLabels(/^photo \(/)).toEqual([imageName(1)]);

    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL(/\/collections\/posts\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").pop()!;
    const stored = (await owner.get(`/api/dashboard/collections/posts/entries/${id}`)).expectStatus(200).body;
    expect(stored).toMatchObject({ title: "Picked with the mouse", tag: oldest.tag, photo: oldest.image });
    expect(stored.tags).toHaveLength(2);
    expect(stored.tags[0]).toBe(oldest.tag);

    await page.reload();
    await expect.poll(() => chosenLabels(/^tag \(/)).toEqual([tagName(1)]);
    await expect.poll(() => chosenLabels(/^tags \(/)).toEqual([tagName(1), tagName(500)]);
    await expect.poll(() => chosenLabels(/^photo \(/)).toEqual([imageName(1)]);
    await screenshot(page, "entry-editor-pickers", true);
    await expectAccessible(page, "entry editor with chosen values");
  });

  it("an entry whose relation and media point at the oldest items shows their labels, not a blank", async () => {
    const post = (await owner.post("/api/dashboard/collections/posts/entries", { title: "Old links", tag: oldest.tag, photo: oldest.image })).expectStatus(201).body;
    await page.goto(`${d.url}collections/posts/${post.id}`);
    await expect.poll(() => chosenLabels(/^tag \(/)).toEqual([tagName(1)]);
    await expect.poll(() => chosenLabels(/^photo \(/)).toEqual([imageName(1)]);
    expect(await chosenLabels(/^tags \(/)).toEqual([]);
    expect(await group(/^tags \(/).getByText("Nothing chosen.").count()).toBe(1);

    // At 390 px the dialog fits the screen and its thumbnails wrap.
    await page.setViewportSize({ width: 390, height: 800 });
    try {
      await page.getByRole("button", { name: "Choose photo…" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose photo", exact: true });
      await expect.poll(() => dialog.getByTestId("range").textContent()).toBe("1–24 of 200");
      const box = await dialog.evaluate((el) => ({ width: el.getBoundingClientRect().width, scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.width).toBeLessThanOrEqual(390);
      expect(box.scroll).toBe(box.client);
      await screenshot(page, "media-picker-phone");
      await page.keyboard.press("Escape");
      await expect.poll(() => dialog.isVisible()).toBe(false);
    } finally {
      await page.setViewportSize({ width: 1180, height: 760 });
    }
  });

  it("picks by keyboard alone: Enter opens, the search box has focus, arrows move, Enter/Space pick, Page Down pages, Escape closes and focus returns", async () => {
    await newPost();
    await page.getByLabel(/^title/).fill("Picked with the keyboard");
    await page.getByRole("button", { name: "Choose tag…" }).focus();
    await page.keyboard.press("Enter");
    const tagDialog = page.getByRole("dialog", { name: "Choose tag", exact: true });
    await tagDialog.waitFor();
    await expect.poll(focusedId).toBe("field-tag-pick-search");
    await page.keyboard.type(tagName(2));
    await page.keyboard.press("Enter");
    await expect.poll(focusedId).toBe("field-tag-pick-list");
    await expect.poll(() => tagDialog.getByRole("option").allTextContents()).toEqual([expect.stringContaining(tagName(2))]);
    await page.keyboard.press("Enter");
    await expect.poll(() => tagDialog.isVisible()).toBe(false);
    await expect.poll(focusedId).toBe("field-tag");
    await expect.poll(() => chosenLabels(/^tag \(/)).toEqual([tagName(2)]);

    await page.keyboard.press("Tab");
    await expect.poll(focusedId).toBe("field-tags");
    await page.keyboard.press("Enter");
    const tagsDialog = page.getByRole("dialog", { name: "Choose tags", exact: true });
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("1–20 of 1,000");
    await page.keyboard.press("ArrowDown");
    await expect.poll(focusedId).toBe("field-tags-pick-list");
    await page.keyboard.press("PageDown");
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("21–40 of 1,000");
    await page.keyboard.press("PageUp");
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("1–20 of 1,000");
    // Tags 0009 … 0001, newest first: tick the second and the third.
    await tagsDialog.getByLabel("Search by label").focus();
    await page.keyboard.type("tag 000");
    await expect.poll(() => tagsDialog.getByTestId("range").textContent()).toBe("1–9 of 9");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Space");
    await expect.poll(() => tagsDialog.locator('[role="option"][aria-selected="true"]').allTextContents()).toEqual([
      expect.stringContaining(tagName(8)),
      expect.stringContaining(tagName(7)),
    ]);
    await page.keyboard.press("Escape");
    await expect.poll(() => tagsDialog.isVisible()).toBe(false);
    await expect.poll(focusedId).toBe("field-tags");
    await expect.poll(() => chosenLabels(/^tags \(/)).toEqual([tagName(8), tagName(7)]);

    // The chosen values come before the button: Shift+Tab reaches the last one's Remove.
    await page.keyboard.press("Shift+Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "")).toBe(`Remove ${tagName(7)}`);
    await page.keyboard.press("Enter");
    await expect.poll(() => chosenLabels(/^tags \(/)).toEqual([tagName(8)]);

    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL(/\/collections\/posts\/[0-9a-f-]{36}$/);
    const stored = (await owner.get(`/api/dashboard/collections/posts/entries/${page.url().split("/").pop()}`)).expectStatus(200).body;
    expect(stored.tag).toBeTruthy();
    expect(stored.tags).toHaveLength(1);
  });

  it("the media library pages through 200 assets, 48 at a time, with a filename search", async () => {
    await navLink(page, "Media").click();
    const range = page.getByRole("navigation", { name: "Pages of the media library" }).getByTestId("range");
    await expect.poll(() => range.textContent()).toBe("1–48 of 200");
    expect(await page.getByTestId("media-count").textContent()).toBe("200 files");
    expect(await page.locator(".thumbs li").count()).toBe(48);
    await expect.poll(() => page.locator(".thumbs img").first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await screenshot(page, "media-library");
    await expectAccessible(page, "media library");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => range.textContent()).toBe("49–96 of 200");
    await page.getByRole("button", { name: "Last" }).click();
    await expect.poll(() => range.textContent()).toBe("193–200 of 200");
    expect(await page.locator(".thumbs li").count()).toBe(8);
    expect(await page.locator(".thumbs .name").last().textContent()).toBe(imageName(1));
    expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await page.getByLabel("Search by filename").fill("img-19");
    await expect.poll(() => range.textContent()).toBe("1–10 of 10");
    expect(await page.getByTestId("media-count").textContent()).toBe("10 files match “img-19”");
    await page.getByLabel("Search by filename").fill("no such file");
    await expect.poll(() => page.getByText("No file name holds “no such file”.").count()).toBe(1);
  });

  it("deleting a used image warns with the count; Delete anyway deletes it; the entry shows the dangling reference and saves once it is cleared", async () => {
    const doomed = (await owner.post("/api/dashboard/collections/tags/entries", { label: "doomed tag" })).expectStatus(201).body.id as string;
    const post = (await owner.post("/api/dashboard/collections/posts/entries", { title: "Uses img-002", photo: ids.image2, tag: doomed })).expectStatus(201).body;

    await navLink(page, "Media").click();
    await page.getByLabel("Search by filename").fill(imageName(2));
    await expect.poll(() => page.locator(".thumbs .name").allTextContents()).toEqual([imageName(2)]);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect.poll(() => page.locator(".thumbs [role=alert]").textContent()).toBe("Used by 1 entry: deleting it leaves that entry pointing at a missing file.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Delete anyway");
    (await owner.get(`/api/dashboard/media/${ids.image2}`)).expectStatus(200);
    await screenshot(page, "media-in-use");
    await expectAccessible(page, "media library, delete of a used image");
    await page.getByRole("button", { name: "Delete anyway" }).click();
    await expect.poll(() => page.getByText(`No file name holds “${imageName(2)}”.`).count()).toBe(1);
    // The card went with its buttons: focus is on the library's heading, not lost to the page.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("media-title");
    (await owner.get(`/api/dashboard/media/${ids.image2}`)).expectStatus(404);
    (await owner.delete(`/api/dashboard/collections/tags/entries/${doomed}`)).expectStatus(200);

    await page.goto(`${d.url}collections/posts/${post.id}`);
    const photo = group(/^photo \(/);
    await expect.poll(() => photo.getByRole("alert").textContent()).toContain(`missing media ${ids.image2}`);
    await expect.poll(() => group(/^tag \(/).getByRole("alert").textContent()).toContain(`missing entry ${doomed}`);
    await screenshot(page, "entry-dangling", true);
    await expectAccessible(page, "entry editor with dangling references");
    // Saving as it is fails on the first missing value, beside its field.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.locator("#field-tag-error").textContent()).toMatch(/^tag: no entry/);
    await photo.getByRole("button", { name: `Clear missing media ${ids.image2}` }).click();
    await group(/^tag \(/).getByRole("button", { name: `Clear missing entry ${doomed}` }).click();
    await expect.poll(() => photo.getByText("Nothing chosen.").count()).toBe(1);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    (await owner.get(`/api/dashboard/collections/posts/entries/${post.id}`)).expectStatus(200).expectBody({ photo: null, tag: null, title: "Uses img-002" });
    expect(csp).toEqual([]);
  });
  it("the picker says what the shown results answer, and a reopened picker never shows the last search's results", async () => {
    await newPost();
    await page.getByRole("button", { name: "Choose tag…" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose tag", exact: true });
    const search = dialog.getByLabel("Search by label");
    const status = dialog.locator("p.state[role=status]");
    await search.fill("no-such-tag");
    await expect.poll(() => status.textContent()).toBe("Nothing matches “no-such-tag”.");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const url = "**/api/dashboard/collections/tags/entries?*";
    await page.route(url, async (route) => {
      await gate;
      await route.fallback();
    });
    // Typed on, not yet searched: the message still names what was searched.
    await search.fill("no-such-tag-either");
    // (Once the search is sent, and held here, the status says "Loading…".)
    expect(["Nothing matches “no-such-tag”.", "Loading…"]).toContain(await status.textContent());
    await expect.poll(() => status.textContent()).toBe("Loading…");
    release();
    await expect.poll(() => status.textContent()).toBe("Nothing matches “no-such-tag-either”.");
    await page.unroute(url);

    await search.fill(tagName(1));
    await expect.poll(() => dialog.getByRole("option").count()).toBe(1);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    let reopen!: () => void;
    const held = new Promise<void>((r) => (reopen = r));
    await page.route(url, async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByRole("button", { name: "Choose tag…" }).click();
    await expect.poll(() => status.textContent()).toBe("Loading…");
    expect(await dialog.getByRole("option").count()).toBe(0);
    reopen();
    await expect.poll(() => dialog.getByTestId("range").textContent()).toMatch(/^1–20 of /);
    await page.unroute(url);
    await dialog.getByRole("button", { name: "Close" }).click();
  });
});
