/**
 * /readyz for load balancers: 200 while PostgreSQL and Redis answer, 503 naming the one that does
 * not, and 200 again once it is back. Each dependency is reached through a TCP proxy the test can
 * cut.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, type Service } from "../../src/service.js";
import { createTestDatabase, PG_URL, REDIS_URL, type TestDatabase } from "../helpers/database.js";
import { silentLogger } from "../helpers/server.js";
import { SECRET_KEY } from "./helpers.js";

/** A TCP proxy to `target` that can be cut (every connection dropped, nothing accepted) and restored. */
async function proxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => s.destroy());
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url: (u: string) => Object.assign(new URL(u), { host: `127.0.0.1:${port}` }).toString(),
    async cut() {
      await new Promise<void>((resolve) => server!.close(() => resolve()) && sockets.forEach((s) => s.destroy()));
    },
    restore: listen,
  };
}

describe.runIf(PG_URL && REDIS_URL)("/readyz with PostgreSQL and Redis", () => {
  let db: TestDatabase;
  let svc: Service;
  let pgProxy: Awaited<ReturnType<typeof proxy>>;
  let redisProxy: Awaited<ReturnType<typeof proxy>>;
  const readyz = async () => {
    const res = await svc.fetch(new Request("http://lb.internal/readyz"));
    return { status: res.status, body: await res.json() };
  };
  const until = async (status: number) => {
    for (let i = 0; i < 50; i++) {
      const r = await readyz();
      if (r.status === status) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return readyz();
  };

  beforeAll(async () => {
    db = await createTestDatabase("postgresql");
    pgProxy = await proxy(new URL(db.url));
    redisProxy = await proxy(new URL(REDIS_URL!));
    svc = await createService({
      dataDir: db.dataDir,
      database: pgProxy.url(db.url),
      redis: redisProxy.url(REDIS_URL!),
      blobs: "memory:",
      secretKey: SECRET_KEY,
      logger: silentLogger(),
    });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.cleanup();
  });

  it("200 with both checks ok", async () => {
    expect(await readyz()).toEqual({ status: 200, body: { ok: true, checks: { database: "ok", redis: "ok" } } });
  });

  it("503 while Redis is unreachable, 200 again once it is back", async () => {
    await redisProxy.cut();
    const started = Date.now();
    expect(await readyz()).toEqual({ status: 503, body: { ok: false, checks: { database: "ok", redis: "unavailable" } } });
    expect(Date.now() - started).toBeLessThan(2500); // bounded even while ioredis retries
    await redisProxy.restore();
    expect((await until(200)).body.checks.redis).toBe("ok");
  });

  it("503 while the database is unreachable, 200 again once it is back", async () => {
    await pgProxy.cut();
    expect(await until(503)).toEqual({ status: 503, body: { ok: false, checks: { database: "unavailable", redis: "ok" } } });
    await pgProxy.restore();
    expect((await until(200)).body.checks.database).toBe("ok");
  });
});
