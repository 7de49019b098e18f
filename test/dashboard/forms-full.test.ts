/**
 * Forms and end users in full, in a real browser: submissions with their uploaded files
 * downloaded through the API with the session's token (never a URL carrying it), the edit panel
 * with one control per field type, CSV and JSON export, the form's public submit URL and embed
 * snippet (whose form really submits), and end-user attributes as typed key/value rows.
 */
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import type { Download, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { callerAt, type Caller } from "../helpers/scenario.js";
import { multipart } from "../forms/helpers.js";
import { cspViolations, describeBrowser, expectAccessible, navLink, screenshot, signIn, startDashboard, type Dashboard } from "./browser.js";

// Bytes no text decoding would keep intact, so a mangled download shows.
const CV = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x80, 0x0a, ...Buffer.from("resume of Ada")]);
const FIELDS = [
  { name: "name", type: "string", required: true },
  { name: "message", type: "text", label: "Your <message>" },
  { name: "plan", type: "select", options: ["free", "pro", "team & co"] },
  { name: "seats", type: "number" },
  { name: "start", type: "date" },
  { name: "agree", type: "boolean" },
  { name: "contact", type: "email" },
  { name: "cv", type: "file" },
];

describeBrowser("dashboard in Chromium: forms and end users in full", () => {
  let d: Dashboard;
  let page: Page;
  let csp: string[];
  let site: Caller;
  let owner: Caller;
  const bytesOf = async (download: Download) => readFile((await download.path())!);

  beforeAll(async () => {
    // Behind a trusted proxy each seeded submission can come from its own address (the submit
    // rate limit is per address).
    d = await startDashboard(["--trust-proxy"]);
    site = callerAt(`http://127.0.0.1:${d.port}`);
    owner = callerAt(`http://127.0.0.1:${d.port}`, (await site.post("/api/dashboard/login", d.owner)).expectStatus(200).body.access_token);
    (await owner.post("/api/dashboard/forms", { slug: "apply", name: "Apply", fields: FIELDS })).expectStatus(201);
    const form = new FormData();
    for (const [k, v] of Object.entries({ name: "Ada", message: "line one\nline two", plan: "pro", seats: "3", start: "2026-05-01", agree: "on" })) form.set(k, v);
    form.set("cv", new File([CV], "cv ada.pdf", { type: "application/pdf" }));
    const { body, type } = await multipart(form);
    (await site.post("/api/v1/forms/apply/submit", undefined, { body, headers: { "content-type": type } })).expectStatus(201);
    const context = await d.context();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(d.url).origin });
    page = await context.newPage();
    csp = cspViolations(page);
    await signIn(page, d.url, d.owner.email, d.owner.password);
  }, 60_000);
  afterAll(() => d?.close());

  const submissions = async () => (await owner.get("/api/dashboard/forms/apply/submissions")).expectStatus(200).body;

  it("submissions: lists file uploads with name, size and type; Download saves the exact bytes through an authenticated fetch", async () => {
    await navLink(page, "Forms").click();
    await page.getByRole("link", { name: "Open" }).click();
    await page.waitForURL("**/_/forms/apply");
    const row = page.locator("table.submissions tbody tr").first();
    await expect.poll(() => row.textContent()).toContain("cv ada.pdf");
    expect(await row.textContent()).toContain(`${CV.length} B · application/pdf`);
    expect(await row.locator("td.cell").first().textContent()).toBe("Ada");
    // No link reaches the file: the button fetches it with the bearer token.
    expect(await page.locator("a[href*='/files/']").count()).toBe(0);
    const requests: { url: string; auth: string | undefined }[] = [];
    page.on("request", (r) => r.url().includes("/files/") && requests.push({ url: r.url(), auth: r.headers().authorization }));
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: "Download cv ada.pdf" }).click()]);
    expect(download.suggestedFilename()).toBe("cv ada.pdf");
    expect(download.url()).toMatch(/^blob:/);
    expect(Buffer.compare(await bytesOf(download), CV)).toBe(0);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.auth).toMatch(/^Bearer ds_/);
    expect(requests[0]!.url).not.toMatch(/token|ds_/);
    await screenshot(page, "form-submissions", true);
    await expectAccessible(page, "submissions with files");
  });

  it("submissions: a file whose submission is gone answers with a message, not a broken download", async () => {
    const form = new FormData();
    form.set("name", "Gone soon");
    form.set("cv", new File(["bye"], "gone.txt", { type: "text/plain" }));
    const { body, type } = await multipart(form);
    const { id } = (await site.post("/api/v1/forms/apply/submit", undefined, { body, headers: { "content-type": type } })).expectStatus(201).body;
    await page.reload();
    const button = page.getByRole("button", { name: "Download gone.txt" });
    await button.waitFor();
    (await owner.delete(`/api/dashboard/forms/apply/submissions/${id}`)).expectStatus(204);
    await button.click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Unknown submission" }).textContent()).toMatch(/may have been deleted meanwhile/);
    await page.reload();
    await expect.poll(() => page.getByRole("button", { name: "Download gone.txt" }).count()).toBe(0);
  });

  it("submissions: paging reaches the oldest", async () => {
    (await owner.post("/api/dashboard/forms", { slug: "poll", name: "Poll", fields: [{ name: "n", type: "number" }] })).expectStatus(201);
    for (let n = 0; n < 27; n++) {
      (await site.post("/api/v1/forms/poll/submit", { n }, { headers: { "x-forwarded-for": `203.0.113.${n + 1}` } })).expectStatus(201);
    }
    await page.goto(`${d.url}forms/poll`);
    const cells = page.locator("table.submissions tbody td.cell");
    await expect.poll(() => cells.count()).toBe(25);
    expect(await cells.first().textContent()).toBe("26");
    expect(await page.locator(".pager").textContent()).toContain("1–25 of 27");
    await page.getByRole("button", { name: "Next" }).click();
    await expect.poll(() => cells.allTextContents()).toEqual(["1", "0"]);
    expect(await page.locator(".pager").textContent()).toContain("26–27 of 27");
    await page.getByRole("button", { name: "Previous" }).click();
    await expect.poll(() => cells.count()).toBe(25);
    await page.goto(`${d.url}forms/apply`);
    await page.locator("table.submissions").waitFor();
  });

  it("edit panel: one control per field type, typed values saved, errors beside the field", async () => {
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    const panel = page.locator("form", { has: page.getByRole("heading", { name: "Edit submission" }) });
    expect(await panel.locator("#sub-message").evaluate((e) => e.tagName)).toBe("TEXTAREA");
    expect(await panel.locator("#sub-message").inputValue()).toBe("line one\nline two");
    expect(await panel.locator("#sub-plan").evaluate((e) => e.tagName)).toBe("SELECT");
    expect(await panel.locator("#sub-plan option").allTextContents()).toEqual(["(none)", "free", "pro", "team & co"]);
    expect(await panel.locator("#sub-plan").inputValue()).toBe("pro");
    expect(await panel.locator("#sub-seats").getAttribute("type")).toBe("number");
    expect(await panel.locator("#sub-start").getAttribute("type")).toBe("date");
    expect(await panel.locator("#sub-start").inputValue()).toBe("2026-05-01");
    expect(await panel.locator("#sub-contact").getAttribute("type")).toBe("email");
    expect(await panel.locator("#sub-agree").isChecked()).toBe(true);
    expect(await panel.getByText("Your <message> (text)").count()).toBe(1);
    expect(await panel.getByText("name (string, required)").count()).toBe(1);
    // The file is shown, read-only, with its own download.
    expect(await panel.locator("#sub-cv").count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("button", { name: "Download cv ada.pdf" }).click()]);
    expect(Buffer.compare(await bytesOf(download), CV)).toBe(0);
    await screenshot(page, "submission-edit", true);
    await expectAccessible(page, "submission edit panel");

    // A refusal names its field and is shown beside it.
    await panel.locator("#sub-name").fill("");
    await panel.locator("#sub-contact").fill("not an address");
    await panel.getByRole("button", { name: "Save submission" }).click();
    const error = panel.locator("#sub-name-error");
    await expect.poll(() => error.textContent()).toMatch(/is required/);
    expect(await panel.locator("#sub-name").getAttribute("aria-describedby")).toBe("sub-name-error");
    expect(await panel.locator("#sub-name").getAttribute("aria-invalid")).toBe("true");

    // Text a number input cannot read is caught beside it, never sent as an emptied (cleared) value.
    await panel.locator("#sub-seats").fill("");
    await panel.locator("#sub-seats").pressSequentially("1e");
    await panel.getByRole("button", { name: "Save submission" }).click();
    await expect.poll(() => panel.locator("#sub-seats-error").textContent()).toMatch(/^Not a number/);
    expect((await submissions()).data[0].data.seats).toBe(3);

    await panel.locator("#sub-name").fill("Ada Lovelace");
    await panel.locator("#sub-contact").fill("ada@example.com");
    await panel.locator("#sub-plan").selectOption("team & co");
    await panel.locator("#sub-seats").fill("12.5");
    await panel.locator("#sub-agree").uncheck();
    await panel.locator("#sub-message").fill("");
    await panel.getByRole("button", { name: "Save submission" }).click();
    await expect.poll(() => panel.count()).toBe(0);
    const [stored] = (await submissions()).data;
    expect(stored.data).toEqual({ name: "Ada Lovelace", contact: "ada@example.com", plan: "team & co", seats: 12.5, start: "2026-05-01" });
    expect(stored.files.map((f: { filename: string }) => f.filename)).toEqual(["cv ada.pdf"]);
    await expect.poll(() => page.locator("table.submissions tbody tr").first().textContent()).toContain("team & co");
  });

  it("export: CSV and JSON download through the API, named after the form", async () => {
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(csv.suggestedFilename()).toBe("apply-submissions.csv");
    const rows = parse((await bytesOf(csv)).toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Ada Lovelace", plan: "team & co", seats: "12.5", start: "2026-05-01", cv: "cv ada.pdf", message: "" });
    const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
    expect(json.suggestedFilename()).toBe("apply-submissions.json");
    const list = JSON.parse((await bytesOf(json)).toString("utf8"));
    expect(list.meta).toEqual({ total: 1 });
    expect(list.data[0].data.plan).toBe("team & co");
    expect(list.data[0].files[0]).toMatchObject({ filename: "cv ada.pdf", size: CV.length });
  });

  it("form page: the public submit URL and embed snippets can be copied, and the snippet's form really submits", async () => {
    const url = `http://localhost:${d.port}/api/v1/forms/apply/submit`;
    expect(await page.getByLabel("Public submit URL").inputValue()).toBe(url);
    await page.getByRole("button", { name: "Copy URL" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const html = (await page.getByTestId("embed-html").textContent())!;
    await page.getByRole("button", { name: "Copy HTML" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(html);
    const script = (await page.getByTestId("embed-js").textContent())!;
    // Names, labels and options arrive escaped: shown as text here, markup only in the snippet.
    expect(html).toContain(`action="${url}" enctype="multipart/form-data"`);
    expect(html).toContain("Your &lt;message&gt;");
    expect(html).toContain('<option value="team &amp; co">team &amp; co</option>');
    expect(html).toContain('name="_gotcha"');
    expect(script).toContain(`fetch(${JSON.stringify(url)}`);
    await page.getByTestId("embed-html").scrollIntoViewIfNeeded();
    await screenshot(page, "form-embed", true);
    await expectAccessible(page, "form page with embed snippet");

    // The plain HTML form, as a site would serve it, posts to the service and is stored.
    const visitor = await (await d.context()).newPage();
    await visitor.setContent(`<!doctype html><title>Apply</title>${html}`);
    await visitor.getByLabel("name", { exact: true }).fill("Grace");
    await visitor.getByLabel("Your <message>").fill("from the snippet");
    await visitor.getByLabel("plan").selectOption("team & co");
    await visitor.getByLabel("seats").fill("4");
    await visitor.getByLabel("agree").check();
    await visitor.getByLabel("cv").setInputFiles({ name: "grace.txt", mimeType: "text/plain", buffer: Buffer.from("Grace's cv") });
    const [response] = await Promise.all([visitor.waitForEvent("response", (r) => r.url() === url), visitor.getByRole("button", { name: "Send" }).click()]);
    expect(response.status()).toBe(201);
    let latest = (await submissions()).data[0];
    expect(latest.data).toEqual({ name: "Grace", message: "from the snippet", plan: "team & co", seats: 4, agree: true });
    expect(latest.files).toMatchObject([{ field: "cv", filename: "grace.txt", size: 10 }]);

    // With the fetch() script the visitor stays on the page and is told it worked (CORS answered).
    await visitor.setContent(`<!doctype html><title>Apply</title>${html}${script}`);
    await visitor.getByLabel("name", { exact: true }).fill("Linus");
    await visitor.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => visitor.getByRole("status").textContent()).toBe("Thank you, we got it.");
    latest = (await submissions()).data[0];
    expect(latest.data).toEqual({ name: "Linus" });
    await visitor.close();
  });

  it("end users: attributes are shown and edited as typed key/value rows, errors beside the row", async () => {
    const user = (await owner.post("/api/dashboard/users", { email: "reader@example.com", password: "reader-password-1", attributes: { plan: "free", seats: 2, roles: ["editor"] } })).expectStatus(201).body;
    await navLink(page, "End users").click();
    await expect.poll(() => page.getByTestId("attributes").first().textContent()).toBe('plan: "free", seats: 2, roles: ["editor"]');
    await page.getByRole("button", { name: "Attributes of reader@example.com" }).click();
    expect(await page.locator("#attr-name-0").inputValue()).toBe("plan");
    expect(await page.locator("#attr-kind-1").inputValue()).toBe("number");
    expect(await page.locator("#attr-value-2").inputValue()).toBe('["editor"]');

    await page.locator("#attr-value-0").fill("pro");
    await page.getByRole("button", { name: "Remove attribute seats" }).click();
    await page.getByRole("button", { name: "Add attribute" }).click();
    await page.locator("#attr-name-2").fill("beta");
    await page.locator("#attr-kind-2").selectOption("boolean");
    await page.locator("#attr-value-2").selectOption("true");
    await page.getByRole("button", { name: "Add attribute" }).click();
    await page.locator("#attr-name-3").fill("quota");
    await page.locator("#attr-kind-3").selectOption("number");
    await page.locator("#attr-value-3").fill("lots");
    await page.getByRole("button", { name: "Save attributes" }).click();
    // Text in a number row is caught beside it, before anything is sent.
    await expect.poll(() => page.locator("#attr-error-3").textContent()).toMatch(/^Not a number/);
    expect(await page.locator("#attr-value-3").getAttribute("aria-describedby")).toBe("attr-error-3");
    await page.locator("#attr-value-3").fill("5");
    // A name the service refuses is shown beside its row.
    await page.getByRole("button", { name: "Add attribute" }).click();
    await page.locator("#attr-name-4").fill("email");
    await page.locator("#attr-value-4").fill("x");
    await page.getByRole("button", { name: "Save attributes" }).click();
    await expect.poll(() => page.locator("#attr-error-4").textContent()).toMatch(/email is the account's own field/);
    await screenshot(page, "end-user-attributes", true);
    await expectAccessible(page, "end-user attributes");
    await page.getByRole("button", { name: "Remove attribute email" }).click();
    await page.getByRole("button", { name: "Save attributes" }).click();
    await expect.poll(() => page.getByText("Attributes saved.").count()).toBe(1);
    const stored = (await owner.get(`/api/dashboard/users/${user.id}`)).expectStatus(200).body;
    expect(stored.attributes).toEqual({ plan: "pro", roles: ["editor"], beta: true, quota: 5 });
    await expect.poll(() => page.getByTestId("attributes").first().textContent()).toBe('plan: "pro", roles: ["editor"], beta: true, quota: 5');
    // The create, list and deactivate flows stay as they were.
    await page.getByRole("button", { name: "Deactivate reader@example.com" }).click();
    await expect.poll(() => page.locator("tbody").textContent()).toContain("deactivated");

    expect(csp).toEqual([]);
  });
  it("the submission and attribute editors keep unsaved edits: another row, a page or closing asks first; opening focuses the panel", async () => {
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    (await site.post("/api/v1/forms/apply/submit", { name: "Grace" }, { headers: { "x-forwarded-for": "198.51.100.7" } })).expectStatus(201);
    await page.goto(`${d.url}forms/apply`);
    const rows = page.locator("table.submissions tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await rows.nth(0).getByRole("button", { name: "Edit", exact: true }).click();
    const panel = page.locator("form", { has: page.getByRole("heading", { name: "Edit submission" }) });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("sub-edit-title");
    const first = await panel.locator("#sub-name").inputValue();
    await panel.locator("#sub-name").fill("Typed, not saved");

    await rows.nth(1).getByRole("button", { name: "Edit", exact: true }).click();
    await leave.waitFor();
    await leave.getByRole("button", { name: "Stay" }).click();
    expect(await panel.locator("#sub-name").inputValue()).toBe("Typed, not saved");
    await panel.getByRole("button", { name: "Cancel" }).click();
    await leave.waitFor();
    await leave.getByRole("button", { name: "Stay" }).click();
    expect(await panel.locator("#sub-name").inputValue()).toBe("Typed, not saved");
    await rows.nth(1).getByRole("button", { name: "Edit", exact: true }).click();
    await leave.getByRole("button", { name: "Leave without saving" }).click();
    await expect.poll(() => panel.locator("#sub-name").inputValue()).not.toBe("Typed, not saved");
    expect((await submissions()).data.some((x: { data: { name?: string } }) => x.data.name === "Typed, not saved")).toBe(false);
    expect(first).not.toBe("");

    // The attributes of one end user are not dropped by opening another's.
    (await owner.post("/api/dashboard/users", { email: "second@example.com", password: "second-password-1", attributes: { plan: "free" } })).expectStatus(201);
    await navLink(page, "End users").click();
    await page.getByRole("button", { name: "Attributes of second@example.com" }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("attrs-title");
    await page.locator("#attr-value-0").fill("enterprise");
    await page.getByRole("button", { name: "Attributes of reader@example.com" }).click();
    await leave.waitFor();
    await leave.getByRole("button", { name: "Stay" }).click();
    expect(await page.locator("#attr-value-0").inputValue()).toBe("enterprise");
    expect(await page.getByRole("heading", { name: "Attributes of second@example.com" }).count()).toBe(1);
    await page.getByRole("button", { name: "Close" }).click();
    await leave.waitFor();
    await leave.getByRole("button", { name: "Leave without saving" }).click();
    await expect.poll(() => page.getByRole("heading", { name: /^Attributes of/ }).count()).toBe(0);
  });

  it("a form whose honeypot is cleared shows the name the service applied, and counts as saved", async () => {
    (await owner.post("/api/dashboard/forms", { slug: "trap", name: "Trap", fields: [{ name: "n", type: "string" }], honeypot: "website" })).expectStatus(201);
    await page.goto(`${d.url}forms/trap`);
    const honeypot = page.getByLabel(/^Honeypot/);
    await expect.poll(() => honeypot.inputValue()).toBe("website");
    await honeypot.fill("");
    await page.getByRole("button", { name: "Save form" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
    const stored = (await owner.get("/api/dashboard/forms/trap")).expectStatus(200).body;
    expect(await honeypot.inputValue()).toBe(stored.honeypot);
    expect(stored.honeypot).not.toBe("");
    // Saved: leaving does not ask.
    await navLink(page, "Forms").click();
    await page.waitForURL(/\/_\/forms$/);
  });
});
