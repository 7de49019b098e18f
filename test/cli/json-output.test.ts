/**
 * What a script reads from the built `svc` binary (docs/cli.md): lists as `{data, meta}`, errors as
 * one JSON line on stderr with --json, exit code 2 for every usage error, the name of a misspelt
 * field, `--filter` in the API's operator syntax, and the warning for a key without grants.
 * On SQLite, and on PostgreSQL when SVC_TEST_DATABASE_URL is set.
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";

const env = { ...process.env, NO_COLOR: "1", SVC_SECRET_KEY: Buffer.alloc(32, 9).toString("base64") };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(drivers)("svc output for scripts (%s)", (driver) => {
  let db: TestDatabase;
  const svc = (...args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(process.execPath, ["bin/svc.mjs", "--data", db.dataDir, "--database", db.url, ...args], { env }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      });
    });
  const json = async (...args: string[]) => {
    const r = await svc("--json", ...args);
    expect(r.code, `svc ${args.join(" ")}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };
  /** The one JSON line a failing command prints on stderr with --json (stdout stays empty). */
  const jsonError = (r: Run) => {
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines, r.stderr).toHaveLength(1);
    return JSON.parse(lines[0]!) as { error: string } & Record<string, unknown>;
  };

  beforeAll(async () => {
    db = await createTestDatabase(driver);
    await json("workspaces", "create", "demo", "--host", "demo.localhost");
    await json("collections", "create", "posts", "-w", "demo", "--field", "title:string:required", "--field", "views:number", "--access", "public");
    await json("entries", "create", "posts", "-w", "demo", "--field", "title=Ada Lovelace", "--field", "views=3");
    await json("entries", "create", "posts", "-w", "demo", "--field", "title=Grace Hopper", "--field", "views=10");
  });
  afterAll(async () => {
    await db.cleanup();
  });

  it("every list prints {data, meta}, collections list and site deploys included; the lists DESIGN fixes as arrays stay arrays", async () => {
    const [collections, deploys, forms, rules, members, media] = await Promise.all([
      json("collections", "list", "-w", "demo"),
      json("site", "deploys", "-w", "demo"),
      json("forms", "list", "-w", "demo"),
      json("rules", "list", "-w", "demo"),
      json("members", "list", "-w", "demo"),
      json("media", "list", "-w", "demo"),
    ]);
    expect(collections).toEqual({ data: [expect.objectContaining({ name: "posts", access: "public" })], meta: { total: 1 } });
    expect(deploys).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0 } });
    for (const list of [forms, rules, members, media]) expect(list).toMatchObject({ data: [], meta: { total: 0 } });
    const [workspaces, keys, webhooks] = await Promise.all([json("workspaces", "list"), json("keys", "list", "-w", "demo"), json("webhooks", "list", "-w", "demo")]);
    expect(workspaces.map((w: { slug: string }) => w.slug)).toEqual(["demo"]);
    expect(keys).toEqual([]);
    expect(webhooks).toEqual([]);
  });

  it("with --json an error is {error, …} on stderr, the HTTP error's extra keys included, with the exit code of text mode", async () => {
    const cases: [string[], number, Record<string, unknown>][] = [
      [["entries", "list", "nope", "-w", "demo"], 1, { error: "Unknown collection: nope" }],
      [["entries", "create", "posts", "-w", "demo", "--field", "title=x", "--field", "views=lots"], 1, { error: "views: must be a finite number", field: "views" }],
      [["keys", "create", "-w", "nowhere", "--name", "x"], 2, { error: "No workspace nowhere (known: demo)" }],
      [["entries", "list", "posts", "-w", "demo", "--limit", "500"], 2, { error: expect.stringMatching(/^limit: /), parameter: "limit" }],
    ];
    for (const [args, code, body] of cases) {
      const [text, asJson] = await Promise.all([svc(...args), svc("--json", ...args)]);
      expect([text.code, text.stdout, text.stderr], args.join(" ")).toEqual([code, "", `svc: ${jsonError(asJson).error}\n`]);
      expect(asJson.code, args.join(" ")).toBe(code);
      expect(jsonError(asJson)).toMatchObject(body);
    }
  });

  it("usage errors exit 2, and with --json print {error} alone on stderr: unknown option or command, missing argument or command, bad value", async () => {
    const cases: [string[], RegExp][] = [
      [["keys", "list", "-w", "demo", "--bogus"], /unknown option '--bogus'/],
      [["entries", "lisst", "posts"], /unknown command 'lisst'.*Did you mean list\?/],
      [["keys", "revoke", "-w", "demo"], /missing required argument 'id'/],
      [["keys", "create", "-w", "demo"], /required option '--name <name>' not specified/],
      [["entries", "list", "posts", "-w", "demo", "--status", "gone"], /'--status <status>' argument 'gone' is invalid\. Allowed choices are draft, published/],
      [["entries", "create", "posts", "-w", "demo", "--field", "title=x", "--status", "gone"], /Allowed choices are draft, published/],
      [["collections", "create", "pages", "-w", "demo", "--access", "open"], /'--access <mode>' argument 'open' is invalid\. Allowed choices are public, private, gated/],
      [["webhooks", "create", "-w", "demo", "--url", "https://example.com/hook", "--event", "content.created", "content.moved"], /argument 'content\.moved' is invalid/],
      [["webhooks", "create", "-w", "demo", "--url", "https://example.com/hook", "--event", "content.created", "--format", "xml"], /'--format <format>' argument 'xml' is invalid/],
      [["entries", "list", "posts", "-w", "demo", "--sort", "nope"], /^sort: "nope" is not a field of collection posts/],
      [["entries", "list", "posts", "-w", "demo", "--filter", "title[contains=Ada"], /--filter title\[contains=Ada: expected field=value or field\[op\]=value/],
      [["webhooks"], /^svc webhooks: missing command/],
      [[], /^svc: missing command/],
    ];
    for (const [args, message] of cases) {
      const [text, asJson] = await Promise.all([svc(...args), svc("--json", ...args)]);
      expect([text.code, text.stdout], `svc ${args.join(" ")}`).toEqual([2, ""]);
      expect(text.stderr).not.toBe("");
      expect(asJson.code, `svc --json ${args.join(" ")}`).toBe(2);
      expect(jsonError(asJson).error).toMatch(message);
    }
    // Asking for help is no error.
    expect((await svc("--json", "keys", "--help")).code).toBe(0);
  });

  it("--field with a misspelt name names that field, beside a required one too, on create and update", async () => {
    const created = jsonError(await svc("--json", "entries", "create", "posts", "-w", "demo", "--field", "titel=x"));
    expect(created).toEqual({ error: "titel: unknown field of collection posts (fields: title, views)", field: "titel" });
    const text = await svc("entries", "create", "posts", "-w", "demo", "--field", "titel=x", "--field", "views=1");
    expect([text.code, text.stderr]).toEqual([1, "svc: titel: unknown field of collection posts (fields: title, views)\n"]);
    const { data } = await json("entries", "list", "posts", "-w", "demo", "--limit", "1");
    const updated = jsonError(await svc("--json", "entries", "update", "posts", data[0].id, "-w", "demo", "--field", "titel=y"));
    expect(updated.field).toBe("titel");
  });

  it("entries list --filter takes field=value and field[op]=value, judged by the API's query parser", async () => {
    const titles = async (...filters: string[]) => {
      const page = await json("entries", "list", "posts", "-w", "demo", "--sort", "title", ...filters.flatMap((f) => ["--filter", f]));
      return page.data.map((e: { title: string }) => e.title);
    };
    expect(await titles("title[contains]=ada")).toEqual(["Ada Lovelace"]);
    expect(await titles("views[gte]=5")).toEqual(["Grace Hopper"]);
    expect(await titles("title=Grace Hopper")).toEqual(["Grace Hopper"]);
    expect(await titles("title[eq]=Grace Hopper")).toEqual(["Grace Hopper"]);
    expect(await titles("views[in]=3,10", "title[ne]=Ada Lovelace")).toEqual(["Grace Hopper"]);
    const refused = await svc("--json", "entries", "list", "posts", "-w", "demo", "--filter", "title[near]=Ada");
    expect(refused.code).toBe(2);
    expect(jsonError(refused)).toEqual({ error: expect.stringMatching(/^filter\[title\]\[near\]: unknown operator/), parameter: "filter[title][near]" });
  });

  it("keys create without --grant warns on stderr that the key can do nothing and how to grant; --json stdout is the key alone", async () => {
    const asJson = await svc("--json", "keys", "create", "-w", "demo", "--name", "bare");
    expect(asJson.code).toBe(0);
    const key = JSON.parse(asJson.stdout);
    expect(key).toMatchObject({ name: "bare", grants: [], value: expect.stringMatching(/^pk_[0-9a-f]{64}$/) });
    const warning = JSON.parse(asJson.stderr.trim()) as { warning: string };
    expect(warning.warning).toMatch(/no grants: it authenticates but can do nothing/);
    expect(warning.warning).toContain("--grant");
    expect(warning.warning).toContain(`svc keys revoke -w demo ${key.id}`);

    const text = await svc("keys", "create", "-w", "demo", "--name", "bare2");
    expect(text.code).toBe(0);
    expect(text.stderr).toMatch(/no grants: it authenticates but can do nothing/);
    expect(text.stdout).not.toMatch(/no grants: it authenticates/);

    const granted = await svc("--json", "keys", "create", "-w", "demo", "--name", "reader", "--grant", "entries:read");
    expect([granted.code, granted.stderr]).toEqual([0, ""]);
  });
});
