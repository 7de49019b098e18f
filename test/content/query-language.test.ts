/**
 * The entry list query language (docs/content.md "Query parameters"): filter operators per field
 * type and on system fields, multi-key sort, fields, expand with the target collections' access
 * (delivery), cursor pagination (after / meta.next), unknown parameters and operators, and the
 * same language through MCP list_items. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestAccount, createTestKey, createTestSession } from "../helpers/credentials.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";

const N = 30;
type Json = any;

describe.each(drivers)("entry list query language on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  let keyRead: string;
  let keyNone: string;
  let account: string;
  const authors: string[] = [];
  const tags: string[] = [];
  let draftAuthor: string;

  const post = async (path: string, json: unknown, host?: string) => (await s.as(owner, { host }).post(path, json)).expectStatus(201).body as Json;
  const ns = (body: Json) => body.data.map((e: { n: number }) => e.n);
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", MCP_HOST], identity: true });
    owner = (await createTestSession(s.svc.context, ws.id)).token;
    keyRead = (await createTestKey(s.svc.context, ws.id, ["entries:read"])).token;
    keyNone = (await createTestKey(s.svc.context, ws.id, ["media:read"])).token;
    account = (await createTestAccount(s.svc.context, ws.id)).token;
    const anyone = (await post("/api/dashboard/rules", { name: "anyone", condition: { signed_in: true } })).id;
    await post("/api/dashboard/collections", { name: "people", access: "private", fields: [{ name: "name", type: "string", required: true }] });
    await post("/api/dashboard/collections", { name: "tags", access: "public", fields: [{ name: "label", type: "string", required: true }] });
    await post("/api/dashboard/collections", { name: "vip", access: "gated", rule: anyone, fields: [{ name: "name", type: "string" }] });
    for (const name of ["Ada", "Grace"]) authors.push((await post("/api/dashboard/collections/people/entries", { name, _status: "published" })).id);
    draftAuthor = (await post("/api/dashboard/collections/people/entries", { name: "Draft" })).id;
    for (const label of ["red", "green", "blue"]) tags.push((await post("/api/dashboard/collections/tags/entries", { label, _status: "published" })).id);
    const vip = (await post("/api/dashboard/collections/vip/entries", { name: "V", _status: "published" })).id;
    await post("/api/dashboard/collections", {
      name: "items",
      access: "public",
      fields: [
        { name: "n", type: "number", required: true },
        { name: "title", type: "string" },
        { name: "body", type: "text" },
        { name: "flag", type: "boolean" },
        { name: "at", type: "datetime" },
        { name: "meta", type: "json" },
        { name: "author", type: "relation", collection: "people" },
        { name: "tags", type: "relations", collection: "tags" },
        { name: "club", type: "relation", collection: "vip" },
        { name: "rel", type: "relation", collection: "items" },
      ],
    });
    // Shuffled creation order, so no sort passes by accident.
    for (const n of range(0, N).map((i) => (i * 7) % N)) {
      await post("/api/dashboard/collections/items/entries", {
        n,
        title: n % 3 === 0 ? `Fizz ${n}` : `plain ${n % 5}`,
        ...(n % 4 === 0 ? {} : { body: `body with 100%_ ${n}` }),
        ...(n % 5 === 0 ? {} : { flag: n % 2 === 0 }),
        ...(n < 20 ? { at: new Date(Date.UTC(2024, 0, 1 + n)).toISOString() } : {}),
        ...(n === 1 ? { meta: { a: 1 } } : {}),
        ...(n < 4 ? { author: n === 3 ? draftAuthor : authors[n % 2] } : {}),
        ...(n < 3 ? { tags: n === 0 ? [tags[0], tags[1]] : [tags[2]] } : {}),
        ...(n === 5 ? { club: vip } : {}),
        _status: "published",
      });
    }
    await post("/api/dashboard/collections/items/entries", { n: 100, title: "draft" });
  });
  afterAll(() => s?.close());

  describe("filters: every operator, typed by the field", () => {
    it.each([
      ["filter[n][eq]=7", [7]],
      ["filter[n]=7", [7]],
      ["filter[n][ne]=0&filter[n][lt]=4", [1, 2, 3]],
      ["filter[n][in]=3,5,99", [3, 5]],
      ["filter[n][nin]=0,1,2&filter[n][lte]=4", [3, 4]],
      ["filter[n][gt]=27", [28, 29]],
      ["filter[n][gte]=27&filter[n][lt]=29", [27, 28]],
      ["filter[n][gte]=-1.5&filter[n][lte]=0.5", [0]],
      ["filter[title][eq]=Fizz 9", [9]],
      ["filter[title][ne]=plain 1&filter[n][lt]=7", [0, 2, 3, 4, 5, 6]],
      ["filter[title][in]=plain 1,Fizz 0", [0, 1, 11, 16, 26]],
      ["filter[title][contains]=fizz&filter[n][lt]=10", [0, 3, 6, 9]],
      ["filter[body][contains]=100%_ 1", [1, 10, 11, 13, 14, 15, 17, 18, 19]],
      ["filter[body][contains]=%", range(0, N).filter((n) => n % 4 !== 0)],
      ["filter[body][null]=true", range(0, N).filter((n) => n % 4 === 0)],
      ["filter[flag]=true", range(0, N).filter((n) => n % 5 !== 0 && n % 2 === 0)],
      ["filter[flag][ne]=true&filter[n][lt]=6", [0, 1, 3, 5]],
      ["filter[flag][null]=false&filter[n][lt]=6", [1, 2, 3, 4]],
      ["filter[at][gte]=2024-01-18&filter[at][lt]=2024-01-20T00:00:00Z", [17, 18]],
      ["filter[at][lt]=2024-01-03T01:00:00%2B01:00", [0, 1]],
      ["filter[at][null]=true", range(20, N)],
      ["filter[meta][null]=false", [1]],
      ["filter[tags]=TAG1", [0]],
      ["filter[tags][in]=TAG1,TAG2", [0, 1, 2]],
      ["filter[tags][nin]=TAG2&filter[n][lt]=4", [0, 3]],
      ["filter[tags][ne]=TAG0&filter[n][lt]=4", [1, 2, 3]],
      ["filter[tags][null]=false", [0, 1, 2]],
      ["filter[author]=AUTH0", [0, 2]],
      ["filter[author][null]=true&filter[n][lt]=6", [4, 5]],
      ["filter[author][ne]=AUTH0&filter[n][lt]=6", [1, 3, 4, 5]],
    ])("%s", async (q, expected) => {
      const query = q.replace(/TAG(\d)/g, (_, i) => tags[Number(i)]!).replace(/AUTH(\d)/g, (_, i) => authors[Number(i)]!);
      const { status, body } = await s.get(`/api/v1/items?${query.replaceAll(" ", "%20")}&sort=n&limit=100`);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(ns(body)).toEqual(expected);
      expect(body.meta.total).toBe((expected as number[]).length);
    });

    it("filters on system fields: id, _created_at, _updated_at, _published_at", async () => {
      const all = (await s.get("/api/v1/items?sort=_published_at&limit=100")).body.data as Json[];
      const ids = (rows: Json[]) => rows.map((e) => e.id);
      const mid = all[10]._published_at;
      const after = await s.get(`/api/v1/items?filter[_published_at][gte]=${encodeURIComponent(mid)}&sort=_published_at&limit=100`);
      expect(ids(after.body.data)).toEqual(ids(all.filter((e) => e._published_at >= mid)));
      expect(after.body.data.length).toBeGreaterThanOrEqual(N - 10);
      const cut = all[3]._created_at;
      const before = await s.get(`/api/v1/items?filter[_created_at][lt]=${encodeURIComponent(cut)}&sort=_created_at&limit=100`);
      expect(ids(before.body.data)).toEqual(ids(all.filter((e) => e._created_at < cut)));
      expect((await s.get(`/api/v1/items?filter[_updated_at][gt]=2000-01-01&limit=0`)).body.meta.total).toBe(N);
      const two = [all[0].id, all[5].id];
      expect(ids((await s.get(`/api/v1/items?filter[id][in]=${two.join(",")}&limit=100`)).body.data).sort()).toEqual([...two].sort());
      expect((await s.get(`/api/v1/items?filter[id]=${two[0]}`)).body.meta.total).toBe(1);
      expect((await s.get(`/api/v1/items?filter[id][ne]=${two[0]}&limit=0`)).body.meta.total).toBe(N - 1);
    });

    it.each([
      ["filter[n][between]=1", 'filter[n][between]: unknown operator "between"'],
      ["filter[n][]=1", 'filter[n][]: unknown operator ""'],
      ["filter[n]=abc", "filter[n]: n is a number field"],
      ["filter[n][in]=1,x", "filter[n][in]: n is a number field"],
      ["filter[n][contains]=1", "filter[n][contains]: n is a number field; it takes eq, ne, in, nin, lt, lte, gt, gte, null"],
      ["filter[flag][gt]=true", "filter[flag][gt]: flag is a boolean field; it takes eq, ne, null"],
      ["filter[title][lt]=a", "filter[title][lt]: title is a string field"],
      ["filter[meta]=1", "filter[meta]: meta is a json field; it takes null"],
      ["filter[tags][contains]=x", "filter[tags][contains]: tags is a relations field"],
      ["filter[n][null]=yes", "filter[n][null]: null takes true or false"],
      ["filter[at][gt]=yesterday", "filter[at][gt]: at is a date-time"],
      ["filter[_published_at][gte]=soon", "filter[_published_at][gte]: _published_at is a date-time"],
      ["filter[id][lt]=x", "filter[id][lt]: id is a system field; it takes eq, ne, in, nin"],
      ["filter[nope][eq]=1", 'filter[nope][eq]: "nope" is not a field of collection items'],
      [`filter[n][in]=${range(0, 101).join(",")}`, "filter[n][in]: at most 100 values"],
      ["filter[n][eq][x]=1", "filter[n][eq][x]: filters are written"],
      ["page=2", '"page" is not a query parameter of this list'],
      ["Limit=2", '"Limit" is not a query parameter of this list'],
      ["sort=n&sort=-n", "sort: given more than once"],
      ["limit=101", "limit: must be an integer from 0 to 100"],
      ["offset=1000000000", "offset: must be an integer from 0 to 999999999"],
      ["fields=n,nope", 'fields: "nope" is not a field of collection items'],
      ["expand=title", "expand: title is a string field; only relation and relations fields expand"],
      ["expand=author.name", 'expand: "author.name" is not a field of collection items'],
      ["sort=n,-n", "sort: n is named twice"],
      ["sort=meta", "sort: meta is a json field and cannot be sorted on"],
      ["sort=n,title,flag,at,body,_created_at", "sort: at most 5 keys"],
    ])("refuses %s with 400 naming it", async (q, message) => {
      const { status, body } = await s.get(`/api/v1/items?${q}`);
      expect(status).toBe(400);
      expect(body.error).toContain(message);
      expect(body.parameter).toBeTypeOf("string");
    });

    it("every list refuses a limit above its maximum the same way (core/pagination.ts)", async () => {
      for (const [path, max] of [["/api/dashboard/media", 100], ["/api/dashboard/users", 200], ["/api/dashboard/collections/items/entries", 100]] as const) {
        const { status, body } = await s.as(owner).get(`${path}?limit=${max + 1}`);
        expect(status, path).toBe(400);
        expect(body).toMatchObject({ error: expect.stringMatching(new RegExp(`^limit: must be an integer from [01] to ${max}$`)), parameter: "limit", maximum: max });
        expect((await s.as(owner).get(`${path}?limit=${max}`)).status, path).toBe(200);
      }
    });

    it("SQL metacharacters in contains/in values are only data", async () => {
      for (const v of ["' OR 1=1 --", "%", "_", "\\", '"); DROP TABLE entries; --']) {
        const { status } = await s.get(`/api/v1/items?filter[title][contains]=${encodeURIComponent(v)}&filter[title][in]=${encodeURIComponent(v)}`);
        expect(status).toBe(200);
      }
      expect((await s.get("/api/v1/items?limit=0")).body.meta.total).toBe(N);
    });
  });

  describe("sort on several keys", () => {
    it("sorts by each key in turn, unset values last, ties broken by id", async () => {
      const { body } = await s.get("/api/v1/items?sort=-flag,title,n&limit=100");
      const rows = body.data as Json[];
      const rank = (f: boolean | null) => (f === true ? 0 : f === false ? 1 : 2);
      const expected = [...rows].sort((a, b) => rank(a.flag) - rank(b.flag) || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) || a.n - b.n);
      expect(rows.map((e) => e.n)).toEqual(expected.map((e) => e.n));
      expect(rows.slice(-6).every((e) => e.flag === null)).toBe(true);
      // Equal titles: id decides, in the direction of the last key.
      const plain = (await s.get("/api/v1/items?sort=title&filter[title]=plain%201&limit=100")).body.data.map((e: Json) => e.id);
      expect(plain).toEqual([...plain].sort());
      const back = (await s.get("/api/v1/items?sort=-title&filter[title]=plain%201&limit=100")).body.data.map((e: Json) => e.id);
      expect(back).toEqual([...plain].reverse());
      expect(ns((await s.get("/api/v1/items?sort=-_published_at,n&limit=3")).body)).toHaveLength(3);
    });
  });

  describe("fields", () => {
    it("returns only the named user fields, every system field, and the expanded ones", async () => {
      const { body } = await s.get("/api/v1/items?fields=n,title,_status&filter[n]=0");
      expect(Object.keys(body.data[0]).sort()).toEqual(["_created_at", "_created_by", "_published_at", "_status", "_updated_at", "id", "n", "title"]);
      const ex = await s.get("/api/v1/items?fields=n&expand=tags&filter[n]=0");
      expect(Object.keys(ex.body.data[0])).toContain("tags");
      expect(ex.body.data[0]).not.toHaveProperty("title");
    });
  });

  describe("expand (delivery): one level, with the target collection's access", () => {
    it("expands a public target for anyone, keeping the relations' order; a missing target is left out", async () => {
      const { status, body } = await s.get("/api/v1/items?expand=tags&filter[n][lt]=3&sort=n");
      expect(status).toBe(200);
      expect(body.data[0].tags.map((e: Json) => e.label)).toEqual(["red", "green"]);
      expect(body.data[0].tags[0]).toMatchObject({ id: tags[0], _status: "published" });
      expect(body.data[1].tags.map((e: Json) => e.label)).toEqual(["blue"]);
    });

    it("into a private collection: 403 naming entries:read without a key (or with a key lacking it), the entries with one", async () => {
      const none = await s.get("/api/v1/items?expand=author&sort=n");
      expect(none.status).toBe(403);
      expect(none.body).toMatchObject({ grant: "entries:read", collection: "people" });
      expect(none.body.error).toContain("entries:read");
      const weak = await s.as(keyNone).get("/api/v1/items?expand=author&sort=n");
      expect(weak.status).toBe(403);
      expect(weak.body).toMatchObject({ error: "Missing grant: entries:read", grant: "entries:read" });
      expect((await s.as(account).get("/api/v1/items?expand=author&sort=n")).status).toBe(403);
      const ok = await s.as(keyRead).get("/api/v1/items?expand=author&sort=n&limit=5");
      expect(ok.status).toBe(200);
      expect(ok.body.data.map((e: Json) => e.author?.name ?? null)).toEqual(["Ada", "Grace", "Ada", null, null]);
    });

    it("never expands a draft on the delivery API (null, as for a missing target)", async () => {
      const { body } = await s.as(keyRead).get("/api/v1/items?expand=author&filter[n]=3");
      expect(body.data[0].author).toBeNull();
      // The dashboard list shows drafts, expanded too.
      const dash = await s.as(owner).get("/api/dashboard/collections/items/entries?expand=author&filter[n]=3");
      expect(dash.body.data[0].author).toMatchObject({ id: draftAuthor, name: "Draft", _status: "draft" });
    });

    it("into a gated collection: an account session satisfying its rule, or a key with entries:read", async () => {
      const none = await s.get("/api/v1/items?expand=club&filter[n]=5");
      expect(none.status).toBe(403);
      expect(none.body).toMatchObject({ collection: "vip", grant: "entries:read" });
      const acc = await s.as(account).get("/api/v1/items?expand=club&filter[n]=5");
      expect(acc.status).toBe(200);
      expect(acc.body.data[0].club).toMatchObject({ name: "V" });
      expect((await s.as(keyRead).get("/api/v1/items?expand=club&filter[n]=5")).status).toBe(200);
    });

    it("checks access on cached responses too, and never serves a stale expansion", async () => {
      const path = "/api/v1/items?expand=author,tags&filter[n]=0";
      const first = await s.as(keyRead).get(path);
      expect(first.body.data[0].author.name).toBe("Ada");
      // Same URL, now cached: still refused without the key.
      expect((await s.get(path)).status).toBe(403);
      (await s.as(owner).patch(`/api/dashboard/collections/people/entries/${authors[0]}`, { name: "Ada L." })).expectStatus(200);
      expect((await s.as(keyRead).get(path)).body.data[0].author.name).toBe("Ada L.");
      await s.as(owner).patch(`/api/dashboard/collections/tags/entries/${tags[1]}`, { _status: "draft" });
      expect((await s.as(keyRead).get(path)).body.data[0].tags.map((e: Json) => e.label)).toEqual(["red"]);
      await s.as(owner).patch(`/api/dashboard/collections/tags/entries/${tags[1]}`, { _status: "published" });
      expect((await s.as(keyRead).get(path)).body.data[0].tags.map((e: Json) => e.label)).toEqual(["red", "green"]);
    });

    it("a self-relation expands without further credentials", async () => {
      expect((await s.get("/api/v1/items?expand=rel&filter[n]=0")).status).toBe(200);
    });
  });

  describe("cursor pagination", () => {
    it.each(["n", "-n", "-flag,title", "at", "-_published_at", "id", "title,-at"])("walking by after equals walking by offset (sort=%s)", async (sort) => {
      const byOffset: string[] = [];
      for (let offset = 0; offset < N; offset += 7) byOffset.push(...(await s.get(`/api/v1/items?sort=${sort}&limit=7&offset=${offset}`)).body.data.map((e: Json) => e.id));
      const byCursor: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 10; i++) {
        const page: { body: Json } = await s.get(`/api/v1/items?sort=${sort}&limit=7${after ? `&after=${after}` : ""}`);
        byCursor.push(...page.body.data.map((e: Json) => e.id));
        expect(page.body.meta.total).toBe(N);
        after = page.body.meta.next;
        if (!after) break;
      }
      expect(after).toBeNull();
      expect(byCursor).toEqual(byOffset);
      expect(new Set(byCursor).size).toBe(N);
    });

    it("keeps filters while walking; the dashboard walks drafts (unset _published_at last)", async () => {
      const first = await s.get("/api/v1/items?filter[title][contains]=plain&sort=n&limit=5");
      const second = await s.get(`/api/v1/items?filter[title][contains]=plain&sort=n&limit=5&after=${first.body.meta.next}`);
      expect([...ns(first.body), ...ns(second.body)]).toEqual([1, 2, 4, 5, 7, 8, 10, 11, 13, 14]);
      const ids: string[] = [];
      let after = "";
      do {
        const page = await s.as(owner).get(`/api/dashboard/collections/items/entries?sort=_published_at&limit=8${after ? `&after=${after}` : ""}`);
        ids.push(...page.body.data.map((e: Json) => e.id));
        after = page.body.meta.next;
      } while (after);
      expect(ids).toHaveLength(N + 1);
      const all = (await s.as(owner).get("/api/dashboard/collections/items/entries?sort=_published_at&limit=100")).body.data;
      expect(ids).toEqual(all.map((e: Json) => e.id));
      expect(all.at(-1)._published_at).toBeNull();
    });

    it("refuses a tampered cursor, one of another sort, and after with offset", async () => {
      const next = (await s.get("/api/v1/items?sort=n&limit=2")).body.meta.next as string;
      const bad = [
        next.slice(0, -3),
        `${next}x`,
        "nonsense",
        Buffer.from('["n,id",1]').toString("base64url"),
        Buffer.from('["n,id","one","x"]').toString("base64url"),
        Buffer.from("{}").toString("base64url"),
        "a+b/c=",
      ];
      for (const after of bad) {
        const { status, body } = await s.get(`/api/v1/items?sort=n&after=${encodeURIComponent(after)}`);
        expect(status, after).toBe(400);
        expect(body).toMatchObject({ parameter: "after" });
      }
      const other = await s.get(`/api/v1/items?sort=-n&after=${next}`);
      expect(other.status).toBe(400);
      expect(other.body.error).toContain("another sort");
      const both = await s.get(`/api/v1/items?sort=n&after=${next}&offset=0`);
      expect(both.status).toBe(400);
      expect(both.body.error).toMatch(/^after: a cursor and an offset cannot be combined/);
    });
  });

  describe("MCP list_items speaks the same language", () => {
    it("filters with operators, sorts on several keys, pages by cursor, projects and expands (drafts included)", async () => {
      const c = await connectClient(s.t, keyRead);
      const page = await callTool(c, "list_items", {
        collection: "items",
        filter: { n: { lt: 6, nin: [1] }, title: { contains: "plain" } },
        sort: ["-n"],
        limit: 2,
        fields: ["n"],
        expand: ["author"],
      });
      expect(page.isError, page.text).toBe(false);
      expect(ns(page.json)).toEqual([5, 4]);
      expect(page.json.data[0]).not.toHaveProperty("title");
      const rest = await callTool(c, "list_items", { collection: "items", filter: { n: { lt: 6, nin: [1] }, title: { contains: "plain" } }, sort: "-n", limit: 2, after: page.json.meta.next });
      expect(ns(rest.json)).toEqual([2]);
      expect(rest.json.meta.next).toBeNull();
      const drafts = await callTool(c, "list_items", { collection: "items", expand: ["author"], filter: { n: 3 } });
      expect(drafts.json.data[0].author).toMatchObject({ name: "Draft", _status: "draft" });
      const bad = await callTool(c, "list_items", { collection: "items", filter: { n: { contains: "1" } } });
      expect(bad).toMatchObject({ isError: true });
      expect(bad.text).toContain("filter[n][contains]: n is a number field");
      expect((await callTool(c, "list_items", { collection: "items", filter: { n: { between: 1 } } })).isError).toBe(true);
      await c.close();
    });
  });

  describe("single-entry reads take fields and expand, nothing else", () => {
    const idOf = async (n: number) => (await s.as(owner).get(`/api/dashboard/collections/items/entries?filter[n]=${n}`)).body.data[0].id as string;
    const SYSTEM = ["_created_at", "_created_by", "_published_at", "_status", "_updated_at", "id"];

    it("delivery: fields projects and expand expands, as on the list", async () => {
      const id = await idOf(0);
      const { status, body } = await s.get(`/api/v1/items/${id}?fields=n,_status&expand=tags`);
      expect(status).toBe(200);
      expect(Object.keys(body.data).sort()).toEqual([...SYSTEM, "n", "tags"].sort());
      expect(body.data.tags.map((e: Json) => e.label)).toEqual(["red", "green"]);
      // Each query is its own cached response: no spelling serves another's body.
      expect((await s.get(`/api/v1/items/${id}?fields=title`)).body.data).toEqual({ ...pick(body.data, SYSTEM), title: "Fizz 0" });
      const whole = await s.get(`/api/v1/items/${id}`);
      expect(whole.body.data.tags).toEqual([tags[0], tags[1]]);
      expect(whole.body.data).toHaveProperty("title", "Fizz 0");
      expect((await s.get(`/api/v1/items/${id}?fields=`)).body.data).toEqual(whole.body.data);
    });

    it.each([
      ["limit=5", "limit", /^"limit" is not a query parameter of a single entry \(fields, expand\)/],
      ["filter[n]=0", "filter[n]", /^"filter\[n\]" is not a query parameter of a single entry/],
      ["sort=n", "sort", /^"sort" is not/],
      ["_=123", "_", /^"_" is not/],
      ["fields=nope", "fields", /^fields: "nope" is not a field of collection items/],
      ["expand=title", "expand", /^expand: title is a string field; only relation and relations fields expand/],
      ["fields=n&fields=title", "fields", /^fields: given more than once/],
    ])("?%s is a 400 naming %s on the delivery and dashboard routes", async (query, parameter, message) => {
      const id = await idOf(1);
      for (const [path, token] of [[`/api/v1/items/${id}`, undefined], [`/api/dashboard/collections/items/entries/${id}`, owner]] as const) {
        const { status, body } = await s.as(token).get(`${path}?${query}`);
        expect(status, path).toBe(400);
        expect(body.parameter).toBe(parameter);
        expect(body.error).toMatch(message);
      }
    });

    it("delivery: expanding into a private or gated collection needs the credential the target needs", async () => {
      const id = await idOf(0);
      const path = `/api/v1/items/${id}?expand=author`;
      const none = await s.get(path);
      expect(none.status).toBe(403);
      expect(none.body).toMatchObject({ grant: "entries:read", collection: "people", parameter: "expand" });
      expect(none.body.error).toMatch(/^expand: collection people is private/);
      expect((await s.as(keyNone).get(path)).body).toMatchObject({ error: "Missing grant: entries:read", grant: "entries:read" });
      expect((await s.as(account).get(path)).status).toBe(403);
      const ok = await s.as(keyRead).get(path);
      expect(ok.status).toBe(200);
      expect(ok.body.data.author).toMatchObject({ id: authors[0], _status: "published" });
      // Refused before the entry is looked up: an unknown id tells nothing more.
      expect((await s.get(`/api/v1/items/${crypto.randomUUID()}?expand=author`)).status).toBe(403);
      expect((await s.as(keyRead).get(`/api/v1/items/${crypto.randomUUID()}?expand=author`)).status).toBe(404);
      const club = `/api/v1/items/${await idOf(5)}?expand=club`;
      expect((await s.get(club)).body).toMatchObject({ collection: "vip", grant: "entries:read" });
      expect((await s.as(account).get(club)).body.data.club).toMatchObject({ name: "V" });
      expect((await s.as(keyRead).get(club)).status).toBe(200);
      expect((await s.get(`/api/v1/items/${id}?expand=rel`)).status).toBe(200);
    });

    it("delivery: re-checks expand access on cache hits and never serves a stale expansion", async () => {
      const path = `/api/v1/items/${await idOf(0)}?expand=author,tags`;
      expect((await s.as(keyRead).get(path)).status).toBe(200);
      expect((await s.get(path)).status).toBe(403);
      expect((await s.as(keyNone).get(path)).status).toBe(403);
      const renamed = `Renamed ${driver}`;
      expect((await s.as(owner).patch(`/api/dashboard/collections/people/entries/${authors[0]}`, { name: renamed })).status).toBe(200);
      expect((await s.as(keyRead).get(path)).body.data.author.name).toBe(renamed);
      await s.as(owner).patch(`/api/dashboard/collections/tags/entries/${tags[0]}`, { _status: "draft" });
      expect((await s.as(keyRead).get(path)).body.data.tags.map((e: Json) => e.label)).toEqual(["green"]);
      await s.as(owner).patch(`/api/dashboard/collections/tags/entries/${tags[0]}`, { _status: "published" });
      expect((await s.as(keyRead).get(path)).body.data.tags.map((e: Json) => e.label)).toEqual(["red", "green"]);
    });

    it("drafts: never expanded nor read on the delivery API; the dashboard and get_item show and expand them", async () => {
      const id = await idOf(3);
      expect((await s.as(keyRead).get(`/api/v1/items/${id}?expand=author`)).body.data.author).toBeNull();
      const dash = await s.as(owner).get(`/api/dashboard/collections/items/entries/${id}?expand=author&fields=n`);
      expect(dash.status).toBe(200);
      expect(dash.body.author).toMatchObject({ id: draftAuthor, name: "Draft", _status: "draft" });
      expect(Object.keys(dash.body).sort()).toEqual([...SYSTEM, "author", "n"].sort());
      const draft = await idOf(100);
      expect((await s.get(`/api/v1/items/${draft}?fields=n`)).status).toBe(404);
      expect((await s.as(owner).get(`/api/dashboard/collections/items/entries/${draft}?fields=n`)).body).toMatchObject({ n: 100, _status: "draft" });

      const c = await connectClient(s.t, keyRead);
      const item = await callTool(c, "get_item", { collection: "items", id, fields: ["n"], expand: ["author"] });
      expect(item.isError, item.text).toBe(false);
      expect(item.json).toEqual(dash.body);
      const whole = await callTool(c, "get_item", { collection: "items", id });
      expect(whole.json).toMatchObject({ n: 3, author: draftAuthor, title: "Fizz 3" });
      const bad = await callTool(c, "get_item", { collection: "items", id, expand: ["title"] });
      expect(bad).toMatchObject({ isError: true });
      expect(bad.text).toContain("expand: title is a string field");
      expect((await callTool(c, "get_item", { collection: "items", id, fields: ["nope"] })).text).toContain('fields: "nope" is not a field of collection items');
      expect((await callTool(c, "get_item", { collection: "items", id, limit: 5 })).isError).toBe(true);
      await c.close();
    });
  });
});

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
