/**
 * Two real `svc serve` processes, A and B, on one PostgreSQL schema and one Redis (DESIGN §3,
 * docs/scaling.md): they behave as one service.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, PG_URL, REDIS_URL, type TestDatabase } from "../helpers/database.js";
import { startReceiver, sleep, type Receiver } from "../webhooks/helpers.js";
import { packSite, siteFiles } from "../site/fixtures.js";
import { both, builtCli, seedDemo, startInstance, type Instance } from "./helpers.js";

describe.runIf(PG_URL && REDIS_URL && builtCli)("two instances on PostgreSQL + Redis", () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  let owner: string;
  let key: string;
  let workspaceId: string;
  let redis: Redis;
  let receiver: Receiver;
  const query = async <T>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase("postgresql");
    ({ owner, key, workspaceId } = await seedDemo(db.url, db.dataDir));
    // Blobs on the shared Redis too: a media upload on A must be served by B.
    // A minute-long first sign-in back-off (a serve flag) outlasts the throttling assertions on a slow machine.
    const args = ["--trust-proxy", "--login-backoff-ms", "60000"];
    [a, b] = await Promise.all([0, 1].map(() => startInstance({ dataDir: db.dataDir, database: db.url, redis: REDIS_URL, blobs: REDIS_URL, args })));
    redis = new Redis(REDIS_URL!);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    // The blobs this run put in the shared Redis (site files live under the workspace id).
    const blobs = redis ? await redis.keys(`contentsvc:blobs:*${workspaceId}*`) : [];
    if (blobs.length) await redis.del(...blobs);
    redis?.disconnect();
    await receiver?.close();
    await db?.cleanup();
  });

  it("/readyz checks the database and Redis on both", async () => {
    for (const x of [a, b]) {
      expect(await x.as(undefined, { host: "lb.internal" }).get("/readyz")).toEqual({ status: 200, body: { ok: true, checks: { database: "ok", redis: "ok" } } });
    }
  });

  it("a write on A is read on B, and the other way round", async () => {
    (await a.as(key).post("/api/dashboard/collections", { name: "posts", fields: [{ name: "title", type: "string", required: true }], access: "public" })).expectStatus(201);
    const entry = (await a.as(key).post("/api/dashboard/collections/posts/entries", { title: "hello", _status: "published" })).expectStatus(201).body;
    const onB = (await b.as().get("/api/v1/posts")).expectStatus(200).body;
    expect(onB.data.map((e: { id: string; title: string }) => [e.id, e.title])).toEqual([[entry.id, "hello"]]);
    (await b.as(key).patch(`/api/dashboard/collections/posts/entries/${entry.id}`, { title: "edited on B" })).expectStatus(200);
    (await a.as().get(`/api/v1/posts/${entry.id}`)).expectStatus(200).expectBody({ data: { title: "edited on B" } });
  });

  it("media uploaded through A is served by B (blobs on a shared driver)", async () => {
    const bytes = randomBytes(2048);
    const up = await a.as(key).post("/api/dashboard/media?filename=blob.bin", undefined, { headers: { "content-type": "application/octet-stream" }, body: bytes });
    const { id } = up.expectStatus(201).body;
    // Raw bytes: compared as the bytes received, not as text.
    const got = await b.request(`/api/v1/media/${id}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect([200, 204]).toContain((await b.as(key).delete(`/api/dashboard/media/${id}`)).status);
    (await a.as().get(`/api/v1/media/${id}`)).expectStatus(404);
  });

  it("a site deploy and a rollback through A are served by B at once", async () => {
    const deploy = async (version: string) => {
      (await a.as(key).post("/api/dashboard/site/deploys", undefined, { headers: { "content-type": "application/gzip" }, body: Buffer.from(await packSite(siteFiles(version))) })).expectStatus(201);
    };
    const home = async (x: Instance) => (await x.as().get("/")).text;
    await deploy("v1");
    expect(await home(b)).toContain("home v1");
    await deploy("v2");
    expect(await home(b)).toContain("home v2");
    (await a.as(key).post("/api/dashboard/site/rollback", {})).expectStatus(200);
    expect(await home(b)).toContain("home v1");
  });

  it("a key revoked on A is refused by B on the very next request", async () => {
    const created = (await a.as(owner).post("/api/dashboard/keys", { name: "short-lived", grants: ["entries:read"] })).expectStatus(201).body;
    // Used twice on each: both instances hold the key in their in-process key cache.
    for (const x of [a, b, a, b]) (await x.as(created.value).get("/api/dashboard/collections/posts/entries")).expectStatus(200);
    (await a.as(owner).delete(`/api/dashboard/keys/${created.id}`)).expectStatus(200);
    (await b.as(created.value).get("/api/dashboard/collections/posts/entries")).expectStatus(401);
    (await a.as(created.value).get("/api/dashboard/collections/posts/entries")).expectStatus(401);
  });

  it("a key's grants changed in the database apply on the very next request on both instances", async () => {
    const created = (await a.as(owner).post("/api/dashboard/keys", { name: "regrant", grants: ["entries:read"] })).expectStatus(201).body;
    const list = (x: Instance) => x.as(created.value).get("/api/dashboard/collections/posts/entries");
    for (const x of [a, b, a, b]) expect((await list(x)).status).toBe(200);
    await query("UPDATE api_keys SET grants = $1 WHERE id = $2", [JSON.stringify(["media:read"]), created.id]);
    expect((await list(b)).status).toBe(403);
    expect((await list(a)).status).toBe(403);
    await query("UPDATE api_keys SET grants = $1 WHERE id = $2", [JSON.stringify(["entries:read"]), created.id]);
    expect((await list(a)).status).toBe(200);
    expect((await list(b)).status).toBe(200);
  });

  it("last_used_at is written once per minute per key across both instances", async () => {
    const created = (await a.as(owner).post("/api/dashboard/keys", { name: "busy", grants: ["entries:read"] })).expectStatus(201).body;
    const list = (x: Instance) => x.as(created.value).get("/api/dashboard/collections/posts/entries");
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => list(i % 2 ? a : b)));
    expect(first.every((r) => r.status === 200)).toBe(true);
    // The write is fire-and-forget, off the response path: wait for it rather than for a fixed time.
    const row = await vi.waitFor(
      async () => {
        const [r] = await query<{ last_used_at: string }>("SELECT last_used_at FROM api_keys WHERE id = $1", [created.id]);
        expect(r.last_used_at).not.toBeNull();
        return r;
      },
      { timeout: 10_000, interval: 50 },
    );
    // One instance won the minute's claim in Redis; nobody writes again within it.
    expect(await redis.pttl(`contentsvc:key-used:${created.id}`)).toBeGreaterThan(50_000);
    await sleep(20);
    await Promise.all(Array.from({ length: 20 }, (_, i) => list(i % 2 ? a : b)));
    await sleep(200);
    const [again] = await query<{ last_used_at: string }>("SELECT last_used_at FROM api_keys WHERE id = $1", [created.id]);
    expect(again.last_used_at).toBe(row.last_used_at);
  });

  it("sign-in rate limits are shared: the 11th attempt on one account is refused whichever instance gets it", async () => {
    const email = `throttled-${randomBytes(4).toString("hex")}@example.com`;
    const password = "correct horse battery staple";
    (await a.as(owner).post("/api/dashboard/members", { email, password, role: "member" })).expectStatus(201);
    // Client addresses of this run only, so the shared per-address counters of other runs are untouched.
    const address = () => ({ "x-forwarded-for": `10.${[0, 0, 0].map(() => 1 + Math.floor(Math.random() * 250)).join(".")}` });
    const [attacker, elsewhere] = [address(), address()];
    const attempt = (x: Instance, pw = "wrong password here", headers = attacker) =>
      x.as().post("/api/dashboard/login", { email, password: pw }, { headers });
    for (let i = 0; i < 10; i++) expect((await attempt(i % 2 ? a : b)).status).toBe(401);
    const refused = await attempt(a);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await attempt(b, password)).status).toBe(429);
    // Only that address is held back: the account signs in from another one, on either instance.
    expect((await attempt(b, password, elsewhere)).status).toBe(200);
    expect((await attempt(a, password, elsewhere)).status).toBe(200);
  });

  it("unique names hold under concurrent creates on A and B: one 201, one 409", async () => {
    for (let round = 0; round < 3; round++) {
      const json = { name: `race${round}`, fields: [{ name: "title", type: "string" }], access: "public" };
      const results = await both(
        a.as(key).post("/api/dashboard/collections", json),
        b.as(key).post("/api/dashboard/collections", json),
      );
      expect(results.map(([s]) => s)).toEqual([201, 409]);
      expect(results[1][1].error).toMatch(new RegExp(`race${round}`));
    }
    const email = "same@example.com";
    const members = await both(
      ...[a, b].map((x) => x.as(owner).post("/api/dashboard/members", { email, password: "correct horse battery staple", role: "member" })),
    );
    expect(members.map(([s]) => s)).toEqual([201, 409]);
  });

  it("two saves of one entry on A and B within 0.5 s deliver ONE content.updated with the latest state", async () => {
    (await a.as(owner).post("/api/dashboard/webhooks", { url: receiver.url(), events: ["content.updated"] })).expectStatus(201);
    const entry = (await b.as(key).post("/api/dashboard/collections/posts/entries", { title: "v0" })).expectStatus(201).body;
    const patch = (x: Instance, title: string) => x.as(key).patch(`/api/dashboard/collections/posts/entries/${entry.id}`, { title });
    expect((await patch(a, "v1 on A")).status).toBe(200);
    await sleep(150);
    expect((await patch(b, "v2 on B")).status).toBe(200);
    await receiver.waitFor(1, 3000);
    await sleep(900); // A's own window closed long ago: it stayed silent
    expect(receiver.requests).toHaveLength(1);
    const body = JSON.parse(receiver.requests[0].raw.toString());
    expect(body.event).toBe("content.updated");
    expect(body.data.entry).toMatchObject({ id: entry.id, title: "v2 on B" });
  });
});
