/**
 * The remaining screens in a real browser, each with an axe check and a screenshot: media
 * (several files with progress, previews), forms and their submissions, end users, the rule
 * condition editor, identity settings, and the site (upload, history, live marker, rollback).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { packSite } from "../site/fixtures.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

// A 2×2 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64");
const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1">.txt`;

describeBrowser("dashboard in Chromium: screens", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  /** A visitor of the demo workspace's host. */
  let site: Caller;
  /** The owner, signed in through the API. */
  const ownerCaller = async () => callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);

  beforeAll(async () => {
    d = await startDashboard();
    site = callerAt(`http://127.0.0.1:${d.port}`);
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  it("media: uploads several files with progress, previews images, shows filenames as text", async () => {
    await navLink(page, "Media").click();
    await expect.poll(() => page.getByText("The media library is empty.").count()).toBe(1);
    await page.locator("#media-files").setInputFiles([
      { name: "pixel.png", mimeType: "image/png", buffer: PNG },
      { name: HOSTILE_NAME, mimeType: "text/plain", buffer: Buffer.from("hello") },
    ]);
    await expect.poll(() => page.locator(".thumbs li").count()).toBe(2);
    expect(await page.locator(".thumbs .name").allTextContents()).toEqual(expect.arrayContaining(["pixel.png", HOSTILE_NAME]));
    expect(await page.locator(".thumbs img").count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect.poll(() => page.locator(".thumbs img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await screenshot(page, "media");
    await expectAccessible(page, "media");
  });

  it("entries: the editor writes every field type with its own input (relation and media pickers)", async () => {
    const owner = await ownerCaller();
    (await owner.post("/api/dashboard/collections", { name: "tags", fields: [{ name: "label", type: "string" }] })).expectStatus(201);
    const tag = (await owner.post("/api/dashboard/collections/tags/entries", { label: "news" })).expectStatus(201).body;
    (await owner.post("/api/dashboard/collections/tags/entries", { label: "howto" })).expectStatus(201);
    const fields = [
      { name: "title", type: "string" },
      { name: "body", type: "text" },
      { name: "views", type: "number" },
      { name: "featured", type: "boolean" },
      { name: "when", type: "datetime" },
      { name: "meta", type: "json" },
      { name: "cover", type: "media" },
      { name: "main", type: "relation", collection: "tags" },
      { name: "tags", type: "relations", collection: "tags" },
    ];
    (await owner.post("/api/dashboard/collections", { name: "kinds", fields })).expectStatus(201);

    await page.goto(`${d.url}collections/kinds/new`);
    await page.getByLabel(/^title/).fill("All kinds");
    await page.getByLabel(/^body/).fill("line one\nline two");
    await page.getByLabel(/^views/).fill("42");
    await page.getByLabel("featured").check();
    await page.getByLabel(/^when/).fill("2026-05-01T10:30");
    await page.getByLabel(/^meta/).fill('{"lang": "en"');
    await expect.poll(() => page.getByText("Not valid JSON yet").count()).toBe(1);
    await page.getByLabel(/^meta/).fill('{"lang": "en"}');
    await page.getByRole("button", { name: "Choose cover…" }).click();
    await page.getByRole("dialog", { name: "Choose cover" }).getByRole("option", { name: /pixel\.png/ }).click();
    await page.getByRole("button", { name: "Choose main…" }).click();
    await page.getByRole("dialog", { name: "Choose main" }).getByRole("option", { name: /^news/ }).click();
    await page.getByRole("button", { name: "Choose tags…" }).click();
    const tagsDialog = page.getByRole("dialog", { name: "Choose tags" });
    await tagsDialog.getByRole("option", { name: /^howto/ }).click();
    await tagsDialog.getByRole("option", { name: /^news/ }).click();
    await tagsDialog.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => page.getByRole("group", { name: /^tags/ }).locator(".chosen .label").allTextContents()).toEqual(["howto", "news"]);
    await screenshot(page, "entry-editor-types", true);
    await expectAccessible(page, "entry editor (every type)");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("draft");

    await page.waitForURL(/\/collections\/kinds\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").pop()!;
    const entry = (await owner.get(`/api/dashboard/collections/kinds/entries/${id}`)).expectStatus(200).body;
    const media = (await owner.get("/api/dashboard/media")).expectStatus(200).body;
    const pixel = media.data.find((m: { filename: string }) => m.filename === "pixel.png");
    expect(entry).toMatchObject({
      title: "All kinds",
      body: "line one\nline two",
      views: 42,
      featured: true,
      when: "2026-05-01T10:30:00.000Z",
      meta: { lang: "en" },
      cover: pixel.id,
      main: tag.id,
    });
    expect(entry.tags).toHaveLength(2);
    expect(entry.tags).toContain(tag.id);
  });

  it("forms: builds a form, shows submissions as text", async () => {
    await navLink(page, "Forms").click();
    await page.getByRole("link", { name: "New form" }).click();
    await page.getByLabel("Slug").fill("contact");
    await page.getByLabel("Name", { exact: true }).fill("Contact");
    await page.getByLabel(/^Honeypot/).fill("website");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.locator("#ff-name-0").fill("message");
    await page.getByRole("button", { name: "Create form" }).click();
    await page.waitForURL("**/_/forms/contact");
    (await site.post("/api/v1/forms/contact/submit", { message: "<i>hi</i>" })).expectStatus(201);
    await page.reload();
    await expect.poll(() => page.locator("tbody td.cell").first().textContent()).toBe("<i>hi</i>");
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await page.getByLabel(/^message/).fill("edited");
    await page.getByRole("button", { name: "Save submission" }).click();
    await expect.poll(() => page.locator("tbody td.cell").first().textContent()).toBe("edited");
    await screenshot(page, "form", true);
    await expectAccessible(page, "form and submissions");
  });

  it("end users: creates, lists and deactivates Identity accounts", async () => {
    await navLink(page, "End users").click();
    await expect.poll(() => page.getByText("No end users yet.").count()).toBe(1);
    await page.getByLabel("Email").fill("reader@example.com");
    await page.getByLabel(/^Password/).fill("reader-password-1");
    await page.getByRole("button", { name: "Create end user" }).click();
    await expect.poll(() => page.locator("tbody").textContent()).toContain("reader@example.com");
    (await site.post("/api/v1/accounts/login", { email: "reader@example.com", password: "reader-password-1" })).expectStatus(200);
    await page.getByRole("button", { name: "Deactivate reader@example.com" }).click();
    await expect.poll(() => page.locator("tbody").textContent()).toContain("deactivated");
    await screenshot(page, "end-users");
    await expectAccessible(page, "end users");
  });

  it("rules: the condition editor builds a nested condition the API accepts", async () => {
    await navLink(page, "Rules").click();
    await page.getByRole("button", { name: "New rule" }).click();
    await page.getByLabel("Name", { exact: true }).fill("pro plan");
    await page.locator("#cond-kind").selectOption("any");
    await page.getByRole("button", { name: "Add nested condition" }).click();
    await page.locator("#cond-0-kind").selectOption("eq");
    await page.locator("#cond-0-field").fill("plan");
    await page.locator("#cond-0-v-0").fill("pro");
    await page.getByRole("button", { name: "Add nested condition" }).click();
    await page.locator("#cond-1-kind").selectOption("in");
    await page.locator("#cond-1-field").fill("seats");
    await page.locator("#cond-1-vk-0").selectOption("number");
    await page.locator("#cond-1-v-0").fill("5");
    await page.locator("details summary").click();
    await screenshot(page, "rule-editor", true);
    await expectAccessible(page, "rule editor");
    await page.getByRole("button", { name: "Save rule" }).click();
    await expect.poll(() => page.locator("tbody").textContent()).toContain(
      JSON.stringify({ any: [{ account: { field: "plan", eq: "pro" } }, { account: { field: "seats", in: [5] } }] }),
    );
  });

  it("identity settings: shows the workspace's switches", async () => {
    await navLink(page, "Identity settings").click();
    await expect.poll(() => page.getByLabel(/Identity \(end-user accounts\) is on/).isChecked()).toBe(true);
    await screenshot(page, "identity-settings");
    await expectAccessible(page, "identity settings");
  });

  it("identity settings: self sign-up without a mail transport is refused, the message naming the options", async () => {
    const box = page.getByLabel(/self sign-up/);
    await box.check();
    await page.getByRole("button", { name: "Save identity settings" }).click();
    const alert = page.getByRole("alert");
    await expect.poll(() => alert.textContent()).toMatch(/^Self sign-up needs a mail transport.*--smtp-url.*--dev-mail/);
    await screenshot(page, "identity-settings-no-mail");
    (await (await ownerCaller()).get("/api/dashboard/identity")).expectStatus(200).expectBody({ self_signup: false });
    // The refused switch is an unsaved change until it is back as saved (else leaving asks).
    await box.uncheck();
  });

  it("site: uploads archives with progress, marks the live deploy, rolls back", async () => {
    await navLink(page, "Site").click();
    await expect.poll(() => page.getByText("Nothing deployed yet.").count()).toBe(1);
    for (const version of ["one", "two"]) {
      const buffer = Buffer.from(await packSite({ "index.html": `<h1>version ${version}</h1>` }));
      await page.locator("#site-archive").setInputFiles({ name: `${version}.tar.gz`, mimeType: "application/gzip", buffer });
      await expect.poll(() => page.getByText(`${version}.tar.gz deployed and live.`).count()).toBe(1);
      expect((await site.get("/")).text).toBe(`<h1>version ${version}</h1>`);
    }
    expect(await page.locator("tbody tr").count()).toBe(2);
    expect(await page.locator("tbody tr").first().textContent()).toContain("live");
    await page.getByRole("button", { name: "Roll back" }).click();
    await page.getByRole("button", { name: "Yes, roll back" }).click();
    await expect.poll(() => page.locator("tbody tr").nth(1).textContent()).toContain("live");
    expect((await site.get("/")).text).toBe("<h1>version one</h1>");
    await screenshot(page, "site");
    await expectAccessible(page, "site");
    expect(csp).toEqual([]);
  });
});
