/**
 * Storage faults, so an outage costs availability but never an acknowledged write. PostgreSQL
 * "restarted" under load through a TCP proxy of our own (the shared server is never touched: other
 * files run against it in parallel) — 503 while it is gone, recovery by itself, no lost
 * acknowledged write, no corrupted row. SQLite: two instances writing one file (every write 201 or
 * 503, none lost) and a SIGKILL mid-writes (every acknowledged write present after restart, WAL).
 */
import { createServer as createNetServer, connect, type Server, type Socket } from "node:net";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createService, type Service } from "../../src/service.js";
import { createTestDatabase, PG_URL, type TestDatabase } from "../helpers/database.js";
import { callerAt } from "../helpers/scenario.js";
import { silentLogger } from "../helpers/server.js";
import { builtCli, seedDemo, SECRET_KEY, startInstance } from "../scale/helpers.js";
import { sleep } from "../webhooks/helpers.js";

/** A TCP proxy to `target` that can drop every connection and refuse new ones for a while. */
async function startProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createNetServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => (sockets.delete(s), client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** Kills every proxied connection; new ones are cut at once until `restore`. */
    kill() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), [...sockets].forEach((s) => s.destroy()))),
  };
}

async function serve(svc: Service): Promise<{ base: string; close(): Promise<void> }> {
  const server: HttpServer = createServer(svc.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const POSTS = { name: "posts", access: "public", fields: [{ name: "title", type: "string", required: true }, { name: "n", type: "number", required: true }] };
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

describe.runIf(PG_URL)("PostgreSQL restarted mid-load (through a proxy)", () => {
  it("answers 503 {error} while it is gone, recovers by itself, loses no acknowledged write", async () => {
    const db: TestDatabase = await createTestDatabase("postgresql");
    cleanup.push(() => db.cleanup());
    const { workspaceId: _ws, key } = await seedDemo(db.url, db.dataDir);
    const real = new URL(db.url);
    const proxy = await startProxy(real.hostname, Number(real.port || 5432));
    cleanup.push(() => proxy.close());
    const proxied = new URL(db.url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(proxy.port);
    const svc = await createService({ database: proxied.toString(), dataDir: db.dataDir, blobs: "memory:", secretKey: SECRET_KEY, logger: silentLogger() });
    cleanup.push(() => svc.close());
    const http = await serve(svc);
    cleanup.push(() => http.close());
    const api = callerAt(http.base, key);
    (await api.post("/api/dashboard/collections", POSTS)).expectStatus(201);

    const statuses = new Map<number, number>();
    const acknowledged: string[] = [];
    const bad: string[] = [];
    let n = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const i = n++;
        const write = i % 2 === 0;
        const res = write
          ? await api.post("/api/dashboard/collections/posts/entries", { title: `t${i}`, n: i, _status: "published" })
          : await api.get("/api/v1/posts?limit=5");
        const body = res.body as { id?: string; error?: unknown };
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201 && body.id) acknowledged.push(body.id);
        if (res.status >= 500 && (res.status !== 503 || typeof body.error !== "string")) bad.push(`${res.status} ${JSON.stringify(body)}`);
        if (res.status === 503) await sleep(20);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await sleep(500);
    const beforeOutage = acknowledged.length;
    proxy.kill();
    await sleep(1000);
    const during = statuses.get(503) ?? 0;
    proxy.restore();
    // Recovery by itself: writes are acknowledged again within a few seconds.
    const restored = acknowledged.length;
    for (let i = 0; i < 100 && acknowledged.length < restored + 20; i++) await sleep(50);
    stop = true;
    await Promise.all(workers);

    expect(bad).toEqual([]);
    expect(beforeOutage).toBeGreaterThan(0);
    expect(during).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThanOrEqual(restored + 20);
    // Every acknowledged write is stored, whole.
    const rows = await svc.context.sql.all<{ id: string; data: string }>("SELECT id, data FROM entries");
    const stored = new Map(rows.map((r) => [r.id, r.data]));
    for (const id of acknowledged) expect(stored.has(id), id).toBe(true);
    for (const data of stored.values()) expect(JSON.parse(data)).toMatchObject({ title: expect.stringMatching(/^t\d+$/), n: expect.any(Number) });
    console.info(`postgres outage: ${[...statuses].map(([s, c]) => `${c}×${s}`).join(", ")}; ${acknowledged.length} acknowledged writes all present`);
  });
});

describe("SQLite under contention and crashes", () => {
  it("two instances writing one file: every write is 201 or 503, none lost", async () => {
    const db = await createTestDatabase("sqlite");
    cleanup.push(() => db.cleanup());
    const { key } = await seedDemo(db.url, db.dataDir);
    const open = async () => {
      const svc = await createService({ database: db.url, dataDir: db.dataDir, blobs: "memory:", secretKey: SECRET_KEY, logger: silentLogger() });
      cleanup.push(() => svc.close());
      const http = await serve(svc);
      cleanup.push(() => http.close());
      return http.base;
    };
    const [a, b] = [callerAt(await open(), key), callerAt(await open(), key)];
    (await a.post("/api/dashboard/collections", POSTS)).expectStatus(201);
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await (i % 2 ? a : b).post("/api/dashboard/collections/posts/entries", { title: `t${i}`, n: i });
        return { status: res.status, body: res.body as { id?: string; error?: string } };
      }),
    );
    expect(results.filter((r) => r.status !== 201 && r.status !== 503)).toEqual([]);
    for (const r of results.filter((r) => r.status === 503)) expect(r.body.error).toBeTypeOf("string");
    const ids = results.filter((r) => r.status === 201).map((r) => r.body.id!);
    expect(ids.length).toBeGreaterThan(150);
    const list = await a.get("/api/dashboard/collections/posts/entries?limit=100&offset=0");
    const total = (list.body as { meta: { total: number } }).meta.total;
    expect(total).toBe(ids.length);
  });

  it.runIf(builtCli)("SIGKILL during writes: every acknowledged write is there after restart", async () => {
    const db = await createTestDatabase("sqlite");
    cleanup.push(() => db.cleanup());
    const { key } = await seedDemo(db.url, db.dataDir);
    const first = await startInstance({ dataDir: db.dataDir, database: db.url });
    cleanup.push(() => first.stop("SIGKILL"));
    const writes = callerAt(first.base, key);
    (await writes.post("/api/dashboard/collections", POSTS)).expectStatus(201);
    const acknowledged: string[] = [];
    let n = 0;
    let killed = false;
    const writer = async () => {
      while (!killed) {
        const i = n++;
        try {
          const res = await writes.post("/api/dashboard/collections/posts/entries", { title: `t${i}`, n: i });
          const body = res.body as { id?: string };
          if (res.status === 201 && body.id) acknowledged.push(body.id);
        } catch {
          // the connection died with the process: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 16 }, writer);
    while (acknowledged.length < 100) await sleep(10);
    await first.stop("SIGKILL");
    killed = true;
    await Promise.all(writers);

    const second = await startInstance({ dataDir: db.dataDir, database: db.url });
    cleanup.push(() => second.stop("SIGKILL"));
    const seen = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = (await callerAt(second.base, key).get(`/api/dashboard/collections/posts/entries?limit=100&offset=${offset}`)).body as { data: { id: string }[] };
      page.data.forEach((e) => seen.add(e.id));
      if (page.data.length < 100) break;
    }
    const lost = acknowledged.filter((id) => !seen.has(id));
    expect(lost).toEqual([]);
    console.info(`sqlite SIGKILL: ${acknowledged.length} acknowledged writes, ${lost.length} lost, ${seen.size} stored`);
    await second.stop("SIGTERM");
  });
});
