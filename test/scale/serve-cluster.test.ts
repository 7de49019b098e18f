/**
 * `svc serve --cluster 2`: the primary bootstraps once and forks two workers sharing the port;
 * concurrent writers work (also on one SQLite file in WAL mode); SIGTERM stops the workers
 * gracefully — a debounced webhook delivery still open is flushed — and the primary exits 0.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, PG_URL, REDIS_URL, type DriverName, type TestDatabase } from "../helpers/database.js";
import { startReceiver, sleep, type Receiver } from "../webhooks/helpers.js";
import { builtCli, startInstance, type Instance } from "./helpers.js";

const setups: DriverName[] = PG_URL && REDIS_URL ? ["sqlite", "postgresql"] : ["sqlite"];

const children = (pid: number) => {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
};

describe.runIf(builtCli).each(setups)("svc serve --cluster 2 on %s", (driver) => {
  let db: TestDatabase;
  let primary: Instance;
  let receiver: Receiver;
  let key: string;
  let owner: string;

  beforeAll(async () => {
    db = await createTestDatabase(driver);
    receiver = await startReceiver();
    primary = await startInstance({
      dataDir: db.dataDir,
      ...(driver === "postgresql" && { database: db.url, redis: REDIS_URL }),
      args: ["--cluster", "2"],
    });
    key = (await primary.waitForOutput(/API key\s+(pk_[0-9a-f]+)/))[1];
    const [, email, password] = await primary.waitForOutput(/owner sign-in\s+(\S+) \/ (\S+)/);
    owner = (await primary.as().post("/api/dashboard/login", { email, password })).expectStatus(200).body.access_token;
  });
  afterAll(async () => {
    if (primary && primary.proc.exitCode === null) await primary.stop("SIGKILL");
    await receiver?.close();
    await db?.cleanup();
  });

  it("announces one URL for two workers and serves through both", async () => {
    expect(primary.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(2 workers\)/);
    expect(primary.output().match(/API key/g)).toHaveLength(1);
    expect(children(primary.proc.pid!)).toHaveLength(2);
    (await primary.as(undefined, { host: "lb" }).get("/readyz")).expectStatus(200);
  });

  it("concurrent writers on both workers all succeed", async () => {
    const fields = [{ name: "title", type: "string", required: true }];
    const writer = primary.as(key);
    (await writer.post("/api/dashboard/collections", { name: "posts", fields, access: "public" })).expectStatus(201);
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => writer.post("/api/dashboard/collections/posts/entries", { title: `t${i}` })));
    expect(created.map((r) => r.status)).toEqual(Array(40).fill(201));
    (await writer.get("/api/dashboard/collections/posts/entries?limit=100")).expectStatus(200).expectBody({ meta: { total: 40 } });
  });

  it("SIGTERM flushes a debounced delivery, stops both workers, and the primary exits 0", async () => {
    const hook = (await primary.as(owner).post("/api/dashboard/webhooks", { url: receiver.url(), events: ["content.updated"] })).expectStatus(201).body;
    (await primary.as(owner).put(`/api/dashboard/webhooks/${hook.id}/settings`, { debounce_ms: 60_000 })).expectStatus(200);
    const entry = (await primary.as(key).post("/api/dashboard/collections/posts/entries", { title: "before" })).expectStatus(201).body;
    (await primary.as(key).patch(`/api/dashboard/collections/posts/entries/${entry.id}`, { title: "flushed on close" })).expectStatus(200);
    await sleep(800); // past the 0.5 s coalescing: the delivery now waits in a 60 s debounce window
    expect(receiver.requests).toHaveLength(0);
    const workers = children(primary.proc.pid!);
    const started = Date.now();
    expect(await primary.stop("SIGTERM")).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0].raw.toString()).data.entry.title).toBe("flushed on close");
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
