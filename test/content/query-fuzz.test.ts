/**
 * Malformed entry list queries are 400s, never 500s (docs/content.md "Query parameters"): a few
 * hundred random and edge query strings — stray separators, blanks, brackets, unicode, broken
 * percent-escapes, very long values, duplicated parameters — against the delivery list and the
 * dashboard list over real HTTP, on both drivers; and the same parser behind MCP list_items.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";

type Json = any;

/** Pieces a query string is made of, raw (escaped only where node:http requires it). */
const KEYS = ["limit", "offset", "after", "sort", "fields", "expand", "status", "filter", "filter[]", "filter[title", "filter[[title]]", "Sort", "", "sort[]", "fields[0]"];
const FIELDS = ["title", "body", "views", "flag", "at", "meta", "author", "tags", "id", "_published_at", "nope", "", "%00", "tit le", "é"];
const OPS = ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "contains", "null", "", "between", "eq][x"];
const VALUES = [
  "", ",", " ,", ", ", ",,", " ", "-", "--title", "title,", ",title", "title,,views", "-title,-", "title, views", "[", "]", "[]", "%", "%2", "%zz", "%E0%A4",
  "%C0%AF", "%00", "%2C", "%2C%2C", "1", "-1", "1.5", "1e400", "true", "draft", "published", "2024-01-01", "99999-01-01T00:00:00Z", "é", "😀", "%F0%9F%98%80",
  "author,tags", "author,", "x".repeat(3000), "a,".repeat(150),
];

const rawKey = fc.oneof(
  fc.constantFrom(...KEYS),
  fc.tuple(fc.constantFrom(...FIELDS), fc.option(fc.constantFrom(...OPS))).map(([f, op]) => `filter[${f}]${op === null ? "" : `[${op}]`}`),
  fc.string({ unit: "grapheme", maxLength: 12 }).map(encodeURIComponent),
);
const rawValue = fc.oneof(fc.constantFrom(...VALUES), fc.string({ unit: "grapheme", maxLength: 40 }).map(encodeURIComponent), fc.string({ maxLength: 20 }).map(escapeLoosely));
const rawQuery = fc
  .array(fc.tuple(rawKey, fc.constantFrom("=", "", "=="), rawValue), { minLength: 1, maxLength: 5 })
  .chain((pairs) => fc.constantFrom("&", "&&", ";").map((sep) => pairs.map(([k, eq, v]) => `${k}${eq}${eq ? v : ""}`).join(sep)));

/** Keeps separators and brackets raw, escapes what node:http refuses in a request path. */
function escapeLoosely(s: string): string {
  return [...s].map((c) => (/[A-Za-z0-9,\[\]\-_.~!$'()*+:@/?=&]/.test(c) ? c : encodeURIComponent(c))).join("");
}

/** Deterministic across runs, so a failure reproduces. */
const CASES = [
  "sort=,",
  "sort=%20,",
  "sort=%20",
  "sort=-",
  "sort=title,,views",
  "fields=,",
  "fields=title,",
  "expand=,",
  "expand=%20,author",
  "filter[views][in]=",
  "filter[title][in]=a,",
  "filter[body][contains]=" + "a".repeat(6000),
  "sort=title&sort=,",
  "limit=&offset=&sort=&fields=&expand=",
  ...fc.sample(rawQuery, { numRuns: 300, seed: 42 }),
];

describe.each(drivers)("malformed list queries on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  let key: string;

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", MCP_HOST] });
    owner = (await createTestSession(s.svc.context, ws.id)).token;
    key = (await createTestKey(s.svc.context, ws.id, ["entries:read"])).token;
    const post = async (path: string, json: unknown) => (await s.as(owner).post(path, json)).expectStatus(201);
    await post("/api/dashboard/collections", { name: "people", access: "public", fields: [{ name: "name", type: "string" }] });
    await post("/api/dashboard/collections", {
      name: "posts",
      access: "public",
      fields: [
        { name: "title", type: "string" },
        { name: "body", type: "text" },
        { name: "views", type: "number" },
        { name: "flag", type: "boolean" },
        { name: "at", type: "datetime" },
        { name: "meta", type: "json" },
        { name: "author", type: "relation", collection: "people" },
        { name: "tags", type: "relations", collection: "people" },
      ],
    });
    for (let i = 0; i < 3; i++) await post("/api/dashboard/collections/posts/entries", { title: `t${i}`, body: "b", views: i, _status: "published" });
  });
  afterAll(() => s?.close());

  it(`${CASES.length} random and edge query strings: no 5xx on the delivery or dashboard list; every 400 is JSON naming the parameter`, async () => {
    const failures: string[] = [];
    for (const query of CASES) {
      for (const [path, token] of [["/api/v1/posts", undefined], ["/api/dashboard/collections/posts/entries", owner]] as const) {
        const res = await s.as(token).get(`${path}?${query}`);
        if (res.status >= 500) failures.push(`${res.status} ${path}?${query}: ${res.text.slice(0, 200)}`);
        if (res.status !== 400) continue;
        const body = res.body as Json; // undefined when the 400 is not JSON: a failure below
        const quoted = JSON.stringify(body?.parameter ?? "").slice(0, 30);
        if (typeof body?.parameter !== "string" || !(body.error.startsWith(`${body.parameter}: `) || body.error.startsWith(quoted))) {
          failures.push(`400 not naming its parameter for ${path}?${query}: ${res.text.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ["sort=,", "sort"],
    ["sort=%20,", "sort"],
    ["fields=title,", "fields"],
    ["expand=,author", "expand"],
    ["filter[title][in]=a,", "filter[title][in]"],
  ])("%s is a 400 naming %s on both lists", async (query, parameter) => {
    for (const [path, token] of [["/api/v1/posts", undefined], ["/api/dashboard/collections/posts/entries", owner]] as const) {
      (await s.as(token).get(`${path}?${query}`)).expectStatus(400).expectBody({ parameter, error: expect.stringMatching(new RegExp(`^${parameter.replace(/[[\]]/g, "\\$&")}: `)) });
    }
  });

  it("MCP list_items goes through the same parser: stray separators are errors naming the parameter", async () => {
    const c = await connectClient(s.t, key);
    for (const [args, parameter] of [
      [{ sort: "," }, "sort"],
      [{ sort: ["title", " "] }, "sort"],
      [{ fields: ["title", ""] }, "fields"],
      [{ expand: ["author", ""] }, "expand"],
      [{ filter: { views: { in: [] } } }, "filter[views][in]"],
      [{ filter: { body: { contains: "a".repeat(201) } } }, "filter[body][contains]"],
    ] as const) {
      const result = await callTool(c, "list_items", { collection: "posts", ...args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.text.startsWith(`${parameter}: `), result.text).toBe(true);
    }
    expect((await callTool(c, "list_items", { collection: "posts", sort: ["-views", "title"] })).isError).toBe(false);
    await c.close();
  });
});
