/**
 * Nothing lost by accident, in Chromium: an entry with unsaved edits asks before the route
 * changes (Stay keeps the text, Leave drops it) and before a reload (beforeunload); Ctrl+S saves;
 * Publish and Unpublish save pending edits in the same write; invalid JSON blocks saving with the
 * message beside the field; refusals naming a field show beside it; names are checked in the
 * browser by the server's own rule.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { NAME_RULES } from "../../src/core/names.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

describeBrowser("dashboard in Chromium: unsaved changes and invalid input", () => {
  let d: Dashboard;
  let page: Page;
  let owner: Caller;
  let csp: string[];
  let id: string;
  const stored = async () => (await owner.get(`/api/dashboard/collections/posts/entries/${id}`)).expectStatus(200).body;
  const title = () => page.getByLabel(/^title/);
  const leaveDialog = () => page.getByRole("dialog", { name: "Leave without saving?" });

  beforeAll(async () => {
    d = await startDashboard();
    const base = `http://127.0.0.1:${d.port}`;
    owner = callerAt(base, (await callerAt(base).post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    const fields = [{ name: "title", type: "string", required: true }, { name: "meta", type: "json" }];
    (await owner.post("/api/dashboard/collections", { name: "posts", fields })).expectStatus(201);
    id = (await owner.post("/api/dashboard/collections/posts/entries", { title: "First" })).expectStatus(201).body.id;
    page = await (await d.context()).newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  const openEntry = async () => {
    await page.goto(`${d.url}collections/posts/${id}`);
    await expect.poll(() => title().inputValue()).not.toBe("");
  };

  it("a nav link with pending edits asks: Stay keeps the text, Leave drops it", async () => {
    await openEntry();
    await title().fill("Changed");
    await navLink(page, "Collections").click();
    await leaveDialog().waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Stay");
    await screenshot(page, "unsaved-leave");
    await expectAccessible(page, "leave without saving");

    await page.getByRole("button", { name: "Stay" }).click();
    expect(await leaveDialog().isVisible()).toBe(false);
    expect(page.url()).toMatch(new RegExp(`/collections/posts/${id}$`));
    expect(await title().inputValue()).toBe("Changed");

    await navLink(page, "Collections").click();
    await page.getByRole("button", { name: "Leave without saving" }).click();
    await page.waitForURL(/\/_\/collections$/);
    expect((await stored()).title).toBe("First");
    // Unchanged: leaving does not ask.
    await openEntry();
    await navLink(page, "Collections").click();
    await page.waitForURL(/\/_\/collections$/);
  });

  it("a reload with pending edits gets the browser's beforeunload question", async () => {
    await openEntry();
    await title().fill("Not yet saved");
    const seen: string[] = [];
    const onDialog = (dialog: import("playwright-core").Dialog) => {
      seen.push(dialog.type());
      void dialog.accept();
    };
    page.on("dialog", onDialog);
    await page.reload();
    page.off("dialog", onDialog);
    expect(seen).toEqual(["beforeunload"]);
    await expect.poll(() => title().inputValue()).toBe("First");
  });

  it("Ctrl+S saves, and the browser's save dialog never opens", async () => {
    await openEntry();
    await title().fill("Saved by keyboard");
    await title().press("Control+s");
    await expect.poll(async () => (await stored()).title).toBe("Saved by keyboard");
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    // Saved: leaving no longer asks.
    await navLink(page, "Collections").click();
    await page.waitForURL(/\/_\/collections$/);
  });

  it("Publish and Unpublish with pending edits save them in the same write", async () => {
    await openEntry();
    await title().fill("Published title");
    await expect.poll(() => page.getByTestId("pending").textContent()).toBe("Unsaved changes: Publish saves them too.");
    await page.getByRole("button", { name: "Publish" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("published");
    expect(await stored()).toMatchObject({ _status: "published", title: "Published title" });
    expect(await page.getByRole("status").filter({ hasText: "Saved and published." }).count()).toBe(1);

    await title().fill("Back to draft");
    await page.getByRole("button", { name: "Unpublish" }).click();
    await expect.poll(() => page.getByTestId("status").textContent()).toBe("draft");
    expect(await stored()).toMatchObject({ _status: "draft", title: "Back to draft" });
    expect(await page.getByRole("status").filter({ hasText: "Saved and unpublished: back to draft." }).count()).toBe(1);
    expect(await title().inputValue()).toBe("Back to draft");
    await navLink(page, "Collections").click();
    await page.waitForURL(/\/_\/collections$/);
  });

  it("invalid JSON blocks creating, with the message beside the field; valid JSON saves the parsed value", async () => {
    const before = (await owner.get("/api/dashboard/collections/posts/entries")).expectStatus(200).body.meta.total;
    await page.goto(`${d.url}collections/posts/new`);
    await title().fill("With data");
    const meta = page.getByLabel(/^meta/);
    await meta.fill('{"lang": ');
    await page.getByRole("button", { name: "Create draft" }).click();
    const message = page.locator("#field-meta-error");
    await expect.poll(() => message.textContent()).toMatch(/^Not valid JSON yet: it cannot be saved until it parses/);
    expect(await meta.getAttribute("aria-invalid")).toBe("true");
    expect(await meta.getAttribute("aria-describedby")).toBe("field-meta-error");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-meta");
    expect(await page.getByText("Not valid JSON yet").count()).toBe(1);
    expect(page.url()).toMatch(/\/collections\/posts\/new$/);
    await screenshot(page, "entry-invalid-json");
    await expectAccessible(page, "entry editor: invalid JSON");
    // Ctrl+S is refused the same way.
    await meta.press("Control+s");
    expect((await owner.get("/api/dashboard/collections/posts/entries")).expectStatus(200).body.meta.total).toBe(before);

    await meta.fill('{"lang": "en", "tags": [1, 2]}');
    expect(await message.count()).toBe(0);
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL(/\/collections\/posts\/[0-9a-f-]{36}$/);
    const created = (await owner.get(`/api/dashboard/collections/posts/entries/${page.url().split("/").pop()}`)).expectStatus(200).body;
    expect(created).toMatchObject({ title: "With data", meta: { lang: "en", tags: [1, 2] } });
  });

  it("unparsed JSON counts as an unsaved change", async () => {
    await openEntry();
    await page.getByLabel(/^meta/).fill("[1, 2");
    await navLink(page, "Collections").click();
    await leaveDialog().waitFor();
    await page.getByRole("button", { name: "Stay" }).click();
    expect(await page.getByLabel(/^meta/).inputValue()).toBe("[1, 2");
    await page.getByLabel(/^meta/).fill("");
    await navLink(page, "Collections").click();
    await page.waitForURL(/\/_\/collections$/);
  });

  it("refusals that name a field show beside it: a form's duplicate field, a taken collection name", async () => {
    await page.goto(`${d.url}forms/new`);
    await page.getByLabel("Slug").fill("contact");
    await page.getByLabel("Name", { exact: true }).fill("Contact");
    for (const i of [0, 1]) {
      await page.getByRole("button", { name: "Add field" }).click();
      await page.locator(`#ff-name-${i}`).fill("email");
    }
    await page.getByRole("button", { name: "Create form" }).click();
    const duplicate = page.locator("#form-fields-1-name-error");
    await expect.poll(() => duplicate.textContent()).toBe("fields.1.name: duplicate field email");
    expect(await page.locator("#ff-name-1").getAttribute("aria-describedby")).toBe("form-fields-1-name-error");
    expect(await page.getByRole("alert").count()).toBe(1);
    // Leaving a half-built form asks too.
    await navLink(page, "Forms").click();
    await page.getByRole("button", { name: "Leave without saving" }).click();
    await page.waitForURL(/\/_\/forms$/);

    await page.goto(`${d.url}collections/new`);
    await page.getByLabel("Name", { exact: true }).fill("posts");
    await page.getByRole("button", { name: "Create collection" }).click();
    await expect.poll(() => page.locator("#err-name").textContent()).toBe("Collection posts already exists");
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
  });

  it("a collection name is checked in the browser by the server's rule, with the server's words", async () => {
    await page.goto(`${d.url}collections/new`);
    const name = page.getByLabel("Name", { exact: true });
    await name.fill("my-posts");
    expect(await name.evaluate((el: HTMLInputElement) => [el.validity.valid, el.validity.patternMismatch])).toEqual([false, true]);
    await name.fill("my_posts");
    expect(await name.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(true);
    await name.fill("my-posts");
    await page.getByRole("button", { name: "Create collection" }).click();
    const server = (await owner.post("/api/dashboard/collections", { name: "my-posts" })).expectStatus(400).body.error;
    expect(server).toBe(`name: must be ${NAME_RULES.collection.hint}`);
    await expect.poll(() => page.locator("#err-name").textContent()).toBe(server);
    expect(await page.locator("#c-name-help").textContent()).toContain(NAME_RULES.collection.hint);
    expect(await page.locator("#c-name-help").textContent()).not.toMatch(/dash/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("c-name");
    expect((await owner.get("/api/dashboard/collections/my-posts")).status).not.toBe(200);

    // The rule editor's attribute field: the pattern that used to be invalid under the v flag.
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.goto(`${d.url}rules`);
    await page.getByRole("button", { name: "New rule" }).click();
    await page.locator("#cond-kind").selectOption("eq");
    const field = page.locator("#cond-field");
    for (const [value, valid] of [["team-id", true], ["_plan", true], ["1plan", false], ["a b", false]] as const) {
      await field.fill(value);
      expect(await field.evaluate((el: HTMLInputElement) => el.validity.valid), value).toBe(valid);
    }
    expect(csp).toEqual([]);
  });

  /** Holds requests matching `url` and `method` until the returned release() is called. */
  const hold = async (url: string, method: string) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let seen = 0;
    await page.route(url, async (route) => {
      if (route.request().method() !== method) return route.fallback();
      seen += 1;
      await gate;
      await route.fallback();
    });
    return { release, seen: () => seen, done: () => page.unroute(url) };
  };
  const total = async () => (await owner.get("/api/dashboard/collections/posts/entries")).expectStatus(200).body.meta.total as number;

  it("a second save while the first is in flight is not sent: one entry, however often Ctrl+S or submit fires", async () => {
    const before = await total();
    await page.goto(`${d.url}collections/posts/new`);
    await title().fill("Only once");
    const held = await hold("**/api/dashboard/collections/posts/entries", "POST");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(held.seen).toBe(1);
    expect(await page.getByRole("button", { name: "Create draft" }).isDisabled()).toBe(true);
    await title().press("Control+s");
    await title().press("Control+s");
    await page.evaluate(() => document.querySelector<HTMLFormElement>("form.panel")!.requestSubmit());
    held.release();
    await page.waitForURL((u) => !u.pathname.endsWith("/new"));
    await held.done();
    expect(held.seen()).toBe(1);
    expect(await total()).toBe(before + 1);
  });

  it("after a create whose leave question got Stay, Save updates that entry instead of creating another", async () => {
    const before = await total();
    await page.goto(`${d.url}collections/posts/new`);
    await title().fill("Created once");
    const held = await hold("**/api/dashboard/collections/posts/entries", "POST");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect.poll(held.seen).toBe(1);
    // Typed while the create is in flight: not sent, so moving to the new entry's address asks.
    await title().fill("Created once, then edited");
    held.release();
    await leaveDialog().waitFor();
    await page.getByRole("button", { name: "Stay" }).click();
    await held.done();
    expect(await title().inputValue()).toBe("Created once, then edited");
    expect(await total()).toBe(before + 1);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const latest = async () => (await owner.get("/api/dashboard/collections/posts/entries?sort=-_updated_at&limit=1")).expectStatus(200).body.data[0].title;
    await expect.poll(latest).toBe("Created once, then edited");
    expect(await total()).toBe(before + 1);
  });

  it("an edit typed while a form's save is in flight stays unsaved (leaving asks)", async () => {
    (await owner.post("/api/dashboard/forms", { slug: "inflight", name: "First name", fields: [{ name: "n", type: "string" }] })).expectStatus(201);
    await page.goto(`${d.url}forms/inflight`);
    const name = page.getByLabel("Name", { exact: true });
    await expect.poll(() => name.inputValue()).toBe("First name");
    await name.fill("Sent name");
    const held = await hold("**/api/dashboard/forms/inflight", "PUT");
    await page.getByRole("button", { name: "Save form" }).click();
    await expect.poll(held.seen).toBe(1);
    await name.fill("Typed meanwhile");
    held.release();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    await held.done();
    expect((await owner.get("/api/dashboard/forms/inflight")).expectStatus(200).body.name).toBe("Sent name");
    expect(await name.inputValue()).toBe("Typed meanwhile");
    await navLink(page, "Forms").click();
    await leaveDialog().waitFor();
    await page.getByRole("button", { name: "Leave without saving" }).click();
    await page.waitForURL(/\/_\/forms$/);
  });

  it("Ctrl+S saves only the editor's own form: focus in another editor's form is left alone", async () => {
    const user = (await owner.post("/api/dashboard/users", { email: "keys@example.com", password: "keys-password-1", attributes: { plan: "free" } })).expectStatus(201).body;
    await navLink(page, "End users").click();
    await page.getByRole("button", { name: "Attributes of keys@example.com" }).click();
    await page.locator("#attr-value-0").fill("pro");
    // Focus in the (unchanged) create form: the attribute editor does not submit that form.
    const createForm = page.locator("form", { has: page.getByRole("heading", { name: "Create an end user" }) });
    await createForm.getByLabel("Email").focus();
    await page.keyboard.press("Control+s");
    await page.waitForTimeout(300);
    expect(await createForm.getByRole("alert").count()).toBe(0);
    expect((await owner.get(`/api/dashboard/users/${user.id}`)).expectStatus(200).body.attributes).toEqual({ plan: "free" });
    // Focus in its own form: it saves.
    await page.locator("#attr-value-0").press("Control+s");
    await expect.poll(() => page.getByText("Attributes saved.").count()).toBe(1);
    expect((await owner.get(`/api/dashboard/users/${user.id}`)).expectStatus(200).body.attributes).toEqual({ plan: "pro" });
  });

  // Last: it ends the page's session.
  it("signing out with pending edits asks first: Stay keeps the edit and the session", async () => {
    await openEntry();
    await title().fill("Typed before signing out");
    await page.getByRole("button", { name: "Sign out" }).click();
    await leaveDialog().waitFor();
    await page.getByRole("button", { name: "Stay" }).click();
    expect(await title().inputValue()).toBe("Typed before signing out");
    expect(await page.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect((await stored()).title).not.toBe("Typed before signing out");
  });
});
