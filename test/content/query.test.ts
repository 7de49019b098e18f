/**
 * List queries (docs/content.md): limit/offset pagination, sort on system and user fields,
 * filter[field]=value equality, and SQL metacharacters in names and values being harmless.
 * Delivery and dashboard lists, real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestSession } from "../helpers/credentials.js";

const N = 25;

describe.each(drivers)("entry list queries on %s", (driver) => {
  let s: Scenario;
  let owner: string;
  const tagIds: string[] = [];
  const ns = (body: { data: { n: number }[] }) => body.data.map((e) => e.n);

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = (await createTestSession(s.svc.context, ws.id)).token;
    const post = async (path: string, json: unknown) => (await s.as(owner).post(path, json)).expectStatus(201).body;
    await post("/api/dashboard/collections", { name: "tags", access: "public", fields: [{ name: "label", type: "string" }] });
    for (const label of ["a", "b"]) tagIds.push((await post("/api/dashboard/collections/tags/entries", { label, _status: "published" })).id);
    await post("/api/dashboard/collections", {
      name: "items",
      access: "public",
      fields: [
        { name: "n", type: "number", required: true },
        { name: "tag", type: "string" },
        { name: "flag", type: "boolean" },
        { name: "at", type: "datetime" },
        { name: "tags", type: "relations", collection: "tags" },
      ],
    });
    // Created in shuffled order so that no sort can pass by accident.
    const order = Array.from({ length: N }, (_, i) => (i * 7) % N);
    for (const n of order) {
      await post("/api/dashboard/collections/items/entries", {
        n,
        tag: n % 3 === 0 ? "fizz" : "plain",
        flag: n % 2 === 0,
        at: new Date(Date.UTC(2024, 0, 1 + n)).toISOString(),
        ...(n < 3 ? { tags: n === 0 ? [tagIds[0], tagIds[1]] : [tagIds[1]] } : {}),
        _status: "published",
      });
    }
    for (const n of [100, 101, 102]) await post("/api/dashboard/collections/items/entries", { n, tag: "fizz" });
  });
  afterAll(() => s?.close());

  it("pages with limit (default 20, max 100: above it 400) and offset; meta counts published entries only", async () => {
    const first = await s.get("/api/v1/items?sort=n");
    expect(first.body.meta).toEqual({ total: N, limit: 20, offset: 0, next: expect.any(String) });
    expect(ns(first.body)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const last = await s.get("/api/v1/items?sort=n&limit=10&offset=20");
    expect(ns(last.body)).toEqual([20, 21, 22, 23, 24]);
    expect(last.body.meta).toEqual({ total: N, limit: 10, offset: 20, next: null });
    const over = await s.get("/api/v1/items?limit=500");
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: "limit: must be an integer from 0 to 100", parameter: "limit", maximum: 100 });
    const none = await s.get("/api/v1/items?limit=0");
    expect(none.body).toEqual({ data: [], meta: { total: N, limit: 0, offset: 0, next: null } });
    expect((await s.get("/api/v1/items?offset=1000")).body.data).toEqual([]);
  });

  it.each(["limit=-1", "limit=abc", "offset=-5", "offset=1.5", "limit=1e3"])("refuses %s with 400 naming the parameter", async (q) => {
    const { status, body } = await s.get(`/api/v1/items?${q}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(new RegExp(`^${q.split("=")[0]}: `));
  });

  it("sorts on user fields both ways, and on system fields", async () => {
    expect(ns((await s.get("/api/v1/items?sort=-n&limit=3")).body)).toEqual([24, 23, 22]);
    expect(ns((await s.get("/api/v1/items?sort=at&limit=3")).body)).toEqual([0, 1, 2]);
    expect(ns((await s.get("/api/v1/items?sort=-at&limit=2")).body)).toEqual([24, 23]);
    const created = (await s.get("/api/v1/items?sort=_created_at&limit=100")).body.data.map((e: { _created_at: string }) => e._created_at);
    expect(created).toEqual([...created].sort());
    const published = (await s.get("/api/v1/items?sort=-_published_at&limit=100")).body.data.map((e: { _published_at: string }) => e._published_at);
    expect(published).toEqual([...published].sort().reverse());
    const byId = (await s.get("/api/v1/items?sort=id&limit=100")).body.data.map((e: { id: string }) => e.id);
    expect(byId).toEqual([...byId].sort());
    // default: newest first
    const def = (await s.get("/api/v1/items?limit=100")).body.data.map((e: { _created_at: string }) => e._created_at);
    expect(def).toEqual([...def].sort().reverse());
    // sort by a string field, ties broken deterministically
    const tags = (await s.get("/api/v1/items?sort=tag&limit=100")).body.data.map((e: { tag: string }) => e.tag);
    expect(tags.slice(0, 9).every((x: string) => x === "fizz")).toBe(true);
  });

  it("filters by equality on typed fields, AND-ed", async () => {
    expect(ns((await s.get("/api/v1/items?filter[n]=7")).body)).toEqual([7]);
    const fizz = await s.get("/api/v1/items?filter[tag]=fizz&sort=n");
    expect(ns(fizz.body)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24]);
    expect(fizz.body.meta.total).toBe(9);
    expect(ns((await s.get("/api/v1/items?filter[tag]=fizz&filter[flag]=true&sort=n")).body)).toEqual([0, 6, 12, 18, 24]);
    expect(ns((await s.get("/api/v1/items?filter[flag]=false&sort=n&limit=3")).body)).toEqual([1, 3, 5]);
    expect(ns((await s.get(`/api/v1/items?filter[at]=${encodeURIComponent("2024-01-05T00:00:00Z")}`)).body)).toEqual([4]);
    expect(ns((await s.get(`/api/v1/items?filter[tags]=${tagIds[1]}&sort=n`)).body)).toEqual([0, 1, 2]);
    expect(ns((await s.get(`/api/v1/items?filter[tags]=${tagIds[0]}`)).body)).toEqual([0]);
  });

  it("returns many-to-many values as ordered id arrays in lists and single reads", async () => {
    const list = await s.get("/api/v1/items?filter[n]=0");
    expect(list.body.data[0].tags).toEqual([tagIds[0], tagIds[1]]);
    expect((await s.get("/api/v1/items?filter[n]=5")).body.data[0].tags).toEqual([]);
    const one = await s.get(`/api/v1/items/${list.body.data[0].id}`);
    expect(one.body.data.tags).toEqual([tagIds[0], tagIds[1]]);
  });

  it("dashboard lists include drafts and take status=", async () => {
    expect((await s.as(owner).get("/api/dashboard/collections/items/entries?limit=1")).body.meta.total).toBe(N + 3);
    const drafts = await s.as(owner).get("/api/dashboard/collections/items/entries?status=draft&sort=n");
    expect(ns(drafts.body)).toEqual([100, 101, 102]);
    expect((await s.as(owner).get("/api/dashboard/collections/items/entries?status=published")).body.meta.total).toBe(N);
    expect((await s.as(owner).get("/api/dashboard/collections/items/entries?status=bogus")).status).toBe(400);
    // status= is not a delivery parameter: drafts stay hidden
    const status = await s.get("/api/v1/items?status=draft");
    expect(status.status).toBe(400);
    expect(status.body.error).toMatch(/^"status" is not a query parameter of this list/);
  });

  it.each([
    ["filter[nope]=1", /^filter\[nope\]: "nope" is not a field of collection items/],
    ["filter[n]=abc", /^filter\[n\]: n is a number field/],
    ["filter[flag]=yes", /^filter\[flag\]: flag is a boolean field/],
    ["filter=1", /filters are written filter\[field\]=value/],
    ["sort=nope", /^sort: "nope" is not a field/],
    ["sort=tags", /^sort: tags is a relations field/],
  ])("refuses %s with 400", async (q, message) => {
    const { status, body } = await s.get(`/api/v1/items?${q}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
  });

  describe("SQL metacharacters are harmless", () => {
    const nasty = ["' OR '1'='1", "x'); DROP TABLE entries; --", '"', "\\", "%", "_", "$.n", "null", "1 OR 1=1"];
    it.each(nasty)("as a filter value: %s", async (value) => {
      const { status, body } = await s.get(`/api/v1/items?filter[tag]=${encodeURIComponent(value)}`);
      expect(status).toBe(200);
      expect(body.meta.total).toBe(0);
    });
    it.each(nasty.concat(["n) OR 1=1 --", "n\"]"]))("as a field name: %s", async (name) => {
      for (const q of [`filter[${encodeURIComponent(name)}]=1`, `sort=${encodeURIComponent(name)}`, `sort=-${encodeURIComponent(name)}`]) {
        expect((await s.get(`/api/v1/items?${q}`)).status).toBe(400);
      }
    });
    it("left the data intact", async () => {
      expect((await s.get("/api/v1/items")).body.meta.total).toBe(N);
    });
  });
});
