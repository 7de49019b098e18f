/**
 * The resource commands of `svc` (docs/cli.md) with --json, on the database of a running server:
 * what the CLI writes the server serves on its next request, and what visitors submit over HTTP
 * the CLI lists and exports. On SQLite, and on PostgreSQL when SVC_TEST_DATABASE_URL is set.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse as parseCsv } from "csv-parse/sync";
import { runCli } from "../../src/cli/index.js";
import { drivers } from "../helpers/database.js";
import { dropMail, startTestServer, type TestServer } from "../helpers/server.js";

const SECRET = Buffer.alloc(32, 7).toString("base64");

describe.each(drivers)("svc resource commands (%s)", (driver) => {
  let server: TestServer;
  let blobs: string;

  /** Runs the CLI in this process against the server's database; stdout parsed as the one JSON document. */
  async function svc(...args: string[]): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const code = await runCli(["--data", server.db.dataDir, "--database", server.db.url, "--blobs", blobs, ...args]);
      let json: unknown;
      try {
        json = stdout ? JSON.parse(stdout) : undefined;
      } catch {
        json = undefined;
      }
      return { code, json, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.exitCode = undefined;
    }
  }
  const ok = async (...args: string[]) => {
    const r = await svc("--json", ...args);
    expect(r.code, `svc ${args.join(" ")}: ${r.stderr}`).toBe(0);
    return r.json;
  };
  const fails = async (code: number, ...args: string[]) => {
    const r = await svc("--json", ...args);
    expect(r.code, `svc ${args.join(" ")} should fail`).toBe(code);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    return r.stderr;
  };

  beforeAll(async () => {
    process.env.SVC_SECRET_KEY = SECRET;
    // One blob store for the server and the CLI, as with `svc serve` on a data directory.
    blobs = mkdtempSync(join(tmpdir(), "svc-cli-blobs-"));
    server = await startTestServer(driver, { blobs, sendMail: dropMail });
    await ok("workspaces", "create", "demo", "--host", "demo.localhost");
  });
  afterAll(async () => {
    delete process.env.SVC_SECRET_KEY;
    await server?.close();
    rmSync(blobs, { recursive: true, force: true });
  });

  it("collections get|delete and entries get|update|delete", async () => {
    await ok("collections", "create", "notes", "-w", "demo", "--field", "title:string:required", "--field", "views:number", "--access", "public");
    expect(await ok("collections", "get", "notes", "-w", "demo")).toMatchObject({ name: "notes", access: "public", fields: [{ name: "title", required: true }, { name: "views" }] });
    expect(await fails(1, "collections", "get", "nope", "-w", "demo")).toMatch(/Unknown collection: nope/);

    const created = await ok("entries", "create", "notes", "-w", "demo", "--field", "title=Hello", "--field", "views=1");
    expect(await ok("entries", "get", "notes", created.id, "-w", "demo")).toEqual(created);
    const updated = await ok("entries", "update", "notes", created.id, "-w", "demo", "--field", "views=4", "--status", "published");
    expect(updated).toMatchObject({ id: created.id, title: "Hello", views: 4, _status: "published" });
    // The running server serves what the CLI wrote on its very next request.
    const delivered = await server.request(`/api/v1/notes/${created.id}`);
    expect(delivered.status).toBe(200);
    expect(((await delivered.json()) as { data: { views: number } }).data.views).toBe(4);
    const cleared = await ok("entries", "update", "notes", created.id, "-w", "demo", "--values", JSON.stringify({ views: null }));
    expect(cleared.views).toBeNull();
    expect(await fails(2, "entries", "update", "notes", created.id, "-w", "demo")).toMatch(/Nothing to change/);
    expect(await fails(1, "entries", "update", "notes", created.id, "-w", "demo", "--field", "views=many")).toMatch(/views: must be a finite number/);

    expect(await fails(1, "collections", "delete", "notes", "-w", "demo")).toMatch(/still holds 1 stored entry/);
    expect(await ok("entries", "delete", "notes", created.id, "-w", "demo")).toEqual({ id: created.id, deleted: true });
    expect(await fails(1, "entries", "get", "notes", created.id, "-w", "demo")).toMatch(/Entry not found/);
    expect((await server.request(`/api/v1/notes/${created.id}`)).status).toBe(404);
    expect(await ok("collections", "delete", "notes", "-w", "demo")).toEqual({ name: "notes", deleted: true });
    expect((await ok("collections", "list", "-w", "demo")).data.map((c: { name: string }) => c.name)).not.toContain("notes");
  });

  it("rules list|get|set|delete, by name or id", async () => {
    expect(await ok("rules", "list", "-w", "demo")).toEqual({ data: [], meta: { total: 0 } });
    const created = await ok("rules", "set", "members", "-w", "demo", "--condition", '{"signed_in": true}');
    expect(created).toMatchObject({ name: "members", condition: { signed_in: true } });
    const changed = await ok("rules", "set", "members", "-w", "demo", "--condition", '{"account": {"field": "plan", "eq": "pro"}}');
    expect(changed).toMatchObject({ id: created.id, condition: { account: { field: "plan", eq: "pro" } } });
    expect(await ok("rules", "get", created.id, "-w", "demo")).toEqual(changed);
    expect(await ok("rules", "get", "members", "-w", "demo")).toEqual(changed);
    expect(await ok("rules", "list", "-w", "demo")).toEqual({ data: [changed], meta: { total: 1 } });
    expect(await fails(2, "rules", "set", "x", "-w", "demo", "--condition", "{nope")).toMatch(/--condition: invalid JSON/);
    expect(await fails(1, "rules", "set", "x", "-w", "demo", "--condition", '{"weird": 1}')).toMatch(/condition/);

    await ok("collections", "create", "perks", "-w", "demo", "--access", "gated", "--rule", created.id, "--field", "title:string");
    expect(await fails(1, "rules", "delete", "members", "-w", "demo")).toMatch(/Rule members gates collection perks/);
    await ok("collections", "delete", "perks", "-w", "demo");
    expect(await ok("rules", "delete", "members", "-w", "demo")).toEqual({ id: created.id, name: "members", deleted: true });
    expect(await fails(1, "rules", "get", "members", "-w", "demo")).toMatch(/Unknown rule/);
  });

  it("forms create|list|get|update|delete and submissions list|export|delete", async () => {
    const form = await ok("forms", "create", "contact", "-w", "demo", "--name", "Contact", "--field", "email:email:required", "--field", "message:text");
    expect(form).toMatchObject({ slug: "contact", name: "Contact", honeypot: "_gotcha", fields: [{ name: "email", type: "email", required: true }, { name: "message", type: "text" }] });
    expect(await ok("forms", "list", "-w", "demo")).toEqual({ data: [form], meta: { total: 1 } });
    expect(await ok("forms", "get", "contact", "-w", "demo")).toEqual(form);
    expect(JSON.parse(await fails(2, "forms", "create", "bad", "-w", "demo", "--field", "x:string:optional")).error).toMatch(/unknown part "optional"/);
    expect(await fails(1, "forms", "create", "bad", "-w", "demo", "--field", "x:colour")).toMatch(/fields\.0\.type/);

    // Visitors submit over HTTP to the running server.
    const values = [
      { email: "a@example.com", message: '=HYPERLINK("http://evil.example","click")' },
      { email: "b@example.com", message: 'line one\nline "two", with comma' },
      { email: "c@example.com", message: "-2+3" },
    ];
    const ids: string[] = [];
    for (const v of values) {
      const res = await server.request("/api/v1/forms/contact/submit", { method: "POST", json: v });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }

    const page = await ok("submissions", "list", "contact", "-w", "demo", "--limit", "2");
    expect(page.meta).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(page.data).toHaveLength(2);
    expect(page.data[0]).toMatchObject({ id: expect.any(String), form_id: form.id, data: expect.any(Object), _submitted_at: expect.any(String) });
    expect(await fails(2, "submissions", "list", "contact", "-w", "demo", "--limit", "500")).toMatch(/--limit/);

    // CSV to a file: RFC 4180 quoting, and cells a spreadsheet would run as formulas defused.
    const file = join(server.db.dataDir, "contact.csv");
    expect(await ok("submissions", "export", "contact", "-w", "demo", "--output", file)).toEqual({ form: "contact", format: "csv", count: 3, output: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Onto an existing file another user may read (umask 022): the export leaves it 0600.
    const umask = process.umask(0o022);
    try {
      const shared = join(server.db.dataDir, "shared.csv");
      writeFileSync(shared, "old\n", { mode: 0o644 });
      expect(statSync(shared).mode & 0o777).toBe(0o644);
      expect(await ok("submissions", "export", "contact", "-w", "demo", "--output", shared)).toMatchObject({ count: 3, output: shared });
      expect(statSync(shared).mode & 0o777).toBe(0o600);
      expect(readFileSync(shared, "utf8")).toBe(readFileSync(file, "utf8"));
    } finally {
      process.umask(umask);
    }
    const text = readFileSync(file, "utf8");
    expect(text).toContain('"line one\nline ""two"", with comma"');
    const rows = parseCsv(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.email).sort()).toEqual(["a@example.com", "b@example.com", "c@example.com"]);
    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(byEmail["a@example.com"]!.message).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(byEmail["b@example.com"]!.message).toBe('line one\nline "two", with comma');
    expect(byEmail["c@example.com"]!.message).toBe("'-2+3");
    expect(Object.keys(rows[0]!)).toEqual(["id", "_submitted_at", "_updated_at", "email", "message"]);
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());

    // JSON export on stdout: the {data, meta} list, values untouched.
    const exported = await svc("submissions", "export", "contact", "-w", "demo", "--format", "json");
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.json.meta).toEqual({ total: 3 });
    expect(exported.json.data.map((s: { data: { message: string } }) => s.data.message).sort()).toEqual(values.map((v) => v.message).sort());
    // CSV with --json travels inside one JSON document.
    const wrapped = await ok("submissions", "export", "contact", "-w", "demo");
    expect(wrapped).toMatchObject({ form: "contact", format: "csv", count: 3 });
    expect(wrapped.content.split("\r\n")[0]).toBe("id,_submitted_at,_updated_at,email,message");
    expect(wrapped.content).toBe(text);
    expect(await fails(2, "submissions", "export", "contact", "-w", "demo", "--format", "xml")).toMatch(/--format takes csv or json/);

    // A change stored submissions would violate is refused with the count (the CLI is the owner).
    expect(await fails(1, "forms", "update", "contact", "-w", "demo", "--field", "email:email:required", "--field", "message:text", "--field", "phone:string:required")).toMatch(
      /3 stored submissions would violate/,
    );
    const renamed = await ok("forms", "update", "contact", "-w", "demo", "--name", "Contact us");
    expect(renamed).toMatchObject({ name: "Contact us", fields: form.fields, honeypot: "_gotcha" });
    const served = (await (await server.request("/api/v1/forms/contact")).json()) as { name: string };
    expect(served.name).toBe("Contact us");

    expect(await ok("submissions", "delete", "contact", ids[0]!, "-w", "demo")).toEqual({ id: ids[0], deleted: true });
    expect(await fails(1, "submissions", "delete", "contact", ids[0]!, "-w", "demo")).toMatch(/Unknown submission/);
    expect(await fails(1, "forms", "delete", "contact", "-w", "demo")).toMatch(/still holds 2 submissions; add --with-submissions/);
    expect(await ok("forms", "delete", "contact", "-w", "demo", "--with-submissions")).toEqual({ slug: "contact", deleted: true });
    expect((await server.request("/api/v1/forms/contact")).status).toBe(404);
  });

  it("workspaces update changes hosts and Identity, effective on the server's next request", async () => {
    await ok("workspaces", "create", "shop", "--host", "shop.localhost");
    expect((await server.request("/api/dashboard/identity", { host: "shop.localhost" })).status).toBe(401);
    // Self sign-up mails each new account: refused unless the CLI is told the server's mail transport.
    expect(await fails(1, "workspaces", "update", "shop", "--identity", "--self-signup")).toMatch(/Self sign-up needs a mail transport.*--smtp-url.*--dev-mail/);
    const moved = await ok("workspaces", "update", "shop", "--host", "shop2.localhost", "www.shop2.localhost", "--identity", "--self-signup", "--smtp-url", "smtp://127.0.0.1:2525");
    expect(moved).toMatchObject({ slug: "shop", hosts: ["shop2.localhost", "www.shop2.localhost"], dashboard_host: "admin.shop.localhost", identity: true, self_signup: true });
    expect((await server.request("/api/v1/forms/x", { host: "shop.localhost" })).status).toBe(404);
    const signup = await server.request("/api/v1/accounts/signup", { host: "www.shop2.localhost", method: "POST", json: { email: "v@example.com", password: "a long enough passphrase" } });
    expect(signup.status).toBeLessThan(300);
    const off = await ok("workspaces", "update", "shop", "--no-identity");
    expect(off).toMatchObject({ identity: false, self_signup: true });
    const refused = await server.request("/api/v1/accounts/signup", { host: "shop2.localhost", method: "POST", json: { email: "w@example.com", password: "a long enough passphrase" } });
    expect(refused.status).toBe(404);

    expect(await fails(1, "workspaces", "update", "shop", "--host", "demo.localhost")).toMatch(/Host demo.localhost already belongs to a workspace/);
    expect(await fails(1, "workspaces", "update", "shop", "--host", "admin.shop.localhost")).toMatch(/cannot also be a site host/);
    expect(await fails(2, "workspaces", "update", "shop")).toMatch(/Nothing to change/);
    expect((await ok("workspaces", "list")).find((w: { slug: string }) => w.slug === "shop").hosts).toEqual(["shop2.localhost", "www.shop2.localhost"]);
  });

  it("media upload|list|get|delete store and serve like an HTTP upload", async () => {
    const png = join(server.db.dataDir, "dot.png");
    writeFileSync(png, pngBytes(16, 8));
    const uploaded = await ok("media", "upload", png, "-w", "demo");
    expect(uploaded).toMatchObject({ filename: "dot.png", content_type: "image/png", size: 33, width: 16, height: 8, url: `/api/v1/media/${uploaded.id}` });
    const served = await server.request(`/api/v1/media/${uploaded.id}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(readFileSync(png))).toBe(true);
    expect(await (await server.request(`/api/v1/media/${uploaded.id}/meta`)).json()).toMatchObject({ width: 16, height: 8, content_type: "image/png" });

    // The stored name is sanitised and the type follows it, as over HTTP.
    const text = join(server.db.dataDir, "notes.bin");
    writeFileSync(text, "hello");
    const renamed = await ok("media", "upload", text, "-w", "demo", "--name", "../../evil\u202e.txt");
    expect(renamed.filename).not.toMatch(/[/\\\u202e]/);
    expect(renamed.content_type).toMatch(/^text\/plain/);

    const list = await ok("media", "list", "-w", "demo", "--limit", "1");
    expect(list.meta).toEqual({ total: 2, limit: 1, offset: 0 });
    expect(list.data.map((m: { id: string }) => m.id)).toEqual([renamed.id]);
    expect(await ok("media", "get", uploaded.id, "-w", "demo")).toEqual(uploaded);
    const copy = join(server.db.dataDir, "copy.png");
    expect(await ok("media", "get", uploaded.id, "-w", "demo", "--output", copy)).toMatchObject({ id: uploaded.id, output: copy });
    expect(readFileSync(copy).equals(readFileSync(png))).toBe(true);

    // Refusals: a missing file is a usage error; an empty or oversized one is refused by the service path.
    expect(await fails(2, "media", "upload", join(server.db.dataDir, "absent.png"), "-w", "demo")).toMatch(/no such file/);
    writeFileSync(join(server.db.dataDir, "empty.txt"), "");
    expect(await fails(1, "media", "upload", join(server.db.dataDir, "empty.txt"), "-w", "demo")).toMatch(/empty/);
    const big = join(server.db.dataDir, "big.bin");
    truncateSync((writeFileSync(big, ""), big), 50 * 1024 * 1024 + 1); // sparse: costs no disk
    expect(await fails(1, "media", "upload", big, "-w", "demo")).toMatch(/big\.bin is larger than the upload limit of 52428800 bytes/);

    expect(await ok("media", "delete", uploaded.id, "-w", "demo")).toEqual({ id: uploaded.id, deleted: true });
    expect((await server.request(`/api/v1/media/${uploaded.id}`)).status).toBe(404);
    expect(await fails(1, "media", "get", uploaded.id, "-w", "demo")).toMatch(/not found/i);
  });

  it("members list|update|remove, by id or email; the last owner stays", async () => {
    const owner = await ok("members", "create", "-w", "demo", "--email", "boss@example.com", "--password", "owner passphrase", "--role", "owner");
    const ada = await ok("members", "create", "-w", "demo", "--email", "ada@example.com", "--password", "member passphrase", "--role", "member", "--grant", "entries:read");
    const list = await ok("members", "list", "-w", "demo");
    expect(list.meta).toEqual({ total: 2 });
    expect(list.data.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual([["ada@example.com", "member"], ["boss@example.com", "owner"]]);

    const login = await server.request("/api/dashboard/login", { method: "POST", json: { email: "ada@example.com", password: "member passphrase" } });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    expect((await server.request("/api/dashboard/media", { token })).status).toBe(403);

    const granted = await ok("members", "update", "ADA@example.com", "-w", "demo", "--grant", "media:read", "entries:read");
    expect(granted).toMatchObject({ id: ada.id, role: "member", grants: expect.arrayContaining(["media:read", "entries:read"]) });
    expect((await ok("members", "update", ada.id, "-w", "demo", "--no-grants")).grants).toEqual([]);
    expect(await fails(2, "members", "update", ada.id, "-w", "demo")).toMatch(/Nothing to change/);
    expect(await fails(1, "members", "update", ada.id, "-w", "demo", "--role", "admin")).toMatch(/role/);
    expect(await fails(1, "members", "update", owner.id, "-w", "demo", "--role", "member")).toMatch(/owner/i);
    expect(await fails(1, "members", "remove", "boss@example.com", "-w", "demo")).toMatch(/owner/i);

    // Removal ends the person's sessions at once.
    expect(await ok("members", "remove", "ada@example.com", "-w", "demo")).toEqual({ id: ada.id, deleted: true });
    expect((await server.request("/api/dashboard/collections", { token })).status).toBe(401);
    expect(await fails(1, "members", "remove", ada.id, "-w", "demo")).toMatch(/No such dashboard member/);
    expect((await ok("members", "list", "-w", "demo")).data.map((m: { id: string }) => m.id)).toEqual([owner.id]);
  });

  it("end-users list|get|update|delete on an Identity workspace", async () => {
    await ok("workspaces", "create", "club", "--host", "club.localhost");
    expect(await fails(1, "end-users", "list", "-w", "club")).toMatch(/Identity is not enabled on workspace club; turn it on with svc workspaces update club --identity/);
    await ok("workspaces", "update", "club", "--identity", "--self-signup", "--dev-mail");
    const host = "club.localhost";
    for (const email of ["v1@example.com", "v2@example.com"]) {
      const res = await server.request("/api/v1/accounts/signup", { host, method: "POST", json: { email, password: "visitor passphrase" } });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    }
    const list = await ok("end-users", "list", "-w", "club");
    expect(list.meta).toEqual({ total: 2, limit: 50, offset: 0 });
    expect(list.data.map((u: { email: string }) => u.email)).toEqual(["v1@example.com", "v2@example.com"]);
    expect(JSON.stringify(list)).not.toMatch(/password|hash/i);
    const v1 = await ok("end-users", "get", "V1@example.com", "-w", "club");
    expect(v1).toMatchObject({ email: "v1@example.com", active: true, email_verified: false, attributes: {} });
    expect(await ok("end-users", "get", v1.id, "-w", "club")).toEqual(v1);

    const signIn = await server.request("/api/v1/accounts/login", { host, method: "POST", json: { email: "v1@example.com", password: "visitor passphrase" } });
    const { token } = (await signIn.json()) as { token: string };
    expect((await server.request("/api/v1/accounts/me", { host, token })).status).toBe(200);
    const changed = await ok("end-users", "update", "v1@example.com", "-w", "club", "--attributes", '{"plan": "pro"}', "--email-verified", "true", "--active", "false");
    expect(changed).toMatchObject({ id: v1.id, attributes: { plan: "pro" }, email_verified: true, active: false });
    // Deactivation ends the session at once.
    expect((await server.request("/api/v1/accounts/me", { host, token })).status).toBe(401);
    expect(await fails(2, "end-users", "update", v1.id, "-w", "club", "--active", "maybe")).toMatch(/--active takes true or false/);
    expect(await fails(1, "end-users", "update", v1.id, "-w", "club", "--password", "short")).toMatch(/password/);
    expect(await fails(1, "end-users", "update", v1.id, "-w", "club", "--email", "v2@example.com")).toMatch(/taken|exists|already/i);

    expect(await ok("end-users", "delete", "v2@example.com", "-w", "club")).toMatchObject({ deleted: true });
    expect(await fails(1, "end-users", "get", "v2@example.com", "-w", "club")).toMatch(/Unknown end user/);
    expect((await ok("end-users", "list", "-w", "club")).meta.total).toBe(1);
  });

  it("webhooks update|delete|settings", async () => {
    const created = await ok("webhooks", "create", "-w", "demo", "--url", "https://hooks.example.com/a", "--event", "content.created", "--header", "X-A=1");
    const updated = await ok("webhooks", "update", created.id, "-w", "demo", "--url", "https://hooks.example.com/b", "--event", "content.published", "form.submitted", "--header", "X-B=2");
    expect(updated).toMatchObject({ id: created.id, url: "https://hooks.example.com/b", events: ["content.published", "form.submitted"], header_names: ["X-A", "X-B"], active: true });
    expect((await ok("webhooks", "update", created.id, "-w", "demo", "--clear-headers")).header_names).toEqual([]);
    expect((await ok("webhooks", "update", created.id, "-w", "demo", "--active", "false")).active).toBe(false);
    expect(await fails(1, "webhooks", "update", created.id, "-w", "demo", "--url", "http://hooks.example.com/")).toMatch(/https/);
    // An event name outside the six is a flag value the command cannot take: a usage error.
    expect(await fails(2, "webhooks", "update", created.id, "-w", "demo", "--event", "content.exploded")).toMatch(/'content\.exploded' is invalid/);
    expect(await fails(2, "webhooks", "update", created.id, "-w", "demo")).toMatch(/Nothing to change/);

    const settings = await ok("webhooks", "settings", created.id, "-w", "demo");
    expect(settings).toEqual({ id: created.id, active: false, debounce_ms: expect.any(Number), debounce_scope: expect.any(String) });
    const changed = await ok("webhooks", "settings", created.id, "-w", "demo", "--debounce-ms", "5000", "--debounce-scope", "webhook", "--active", "true");
    expect(changed).toEqual({ id: created.id, active: true, debounce_ms: 5000, debounce_scope: "webhook" });
    expect(await ok("webhooks", "settings", created.id, "-w", "demo")).toEqual(changed);
    const optedIn = await ok("webhooks", "settings", created.id, "-w", "demo", "--log-deliveries", "true", "--standard-webhooks", "true");
    expect(optedIn).toEqual({ ...changed, log_deliveries: true, standard_webhooks: true });
    expect(await ok("webhooks", "settings", created.id, "-w", "demo", "--log-deliveries", "false", "--standard-webhooks", "false")).toEqual(changed);
    expect(await fails(1, "webhooks", "settings", created.id, "-w", "demo", "--debounce-ms", "3600001")).toMatch(/debounce_ms/);
    expect(await fails(1, "webhooks", "settings", created.id, "-w", "demo", "--debounce-scope", "galaxy")).toMatch(/debounce_scope/);
    expect(await fails(2, "webhooks", "settings", created.id, "-w", "demo", "--debounce-ms", "soon")).toMatch(/--debounce-ms takes a whole number/);

    expect(await ok("webhooks", "delete", created.id, "-w", "demo")).toEqual({ id: created.id, deleted: true });
    expect(await fails(1, "webhooks", "settings", created.id, "-w", "demo")).toMatch(/not found/i);
    expect((await ok("webhooks", "list", "-w", "demo")).map((w: { id: string }) => w.id)).not.toContain(created.id);
  });
});

/** A PNG whose header declares width × height (enough for the dimension reader; 33 bytes). */
function pngBytes(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(13);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), len, Buffer.from("IHDR"), ihdr, Buffer.alloc(4)]);
}
