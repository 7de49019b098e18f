/**
 * Durable delivery across real processes (the built CLI and library; run `npx tsdown` first when
 * running this file alone): a SIGKILL between commit and delivery loses nothing, a delivery cut
 * short is taken over once its lease ends, and a CLI write is delivered by the durable server.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createService } from "../../src/service.js";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import { silentLogger } from "../helpers/server.js";
import { builtCli, SECRET_KEY, seedDemo, startInstance, type Instance } from "../scale/helpers.js";
import { startReceiver, type Receiver } from "./helpers.js";
import { callerAt } from "../helpers/scenario.js";
import { sleep, verified } from "./durable-helpers.js";

const BIN = fileURLToPath(new URL("../../bin/svc.mjs", import.meta.url));
const CHILD = fileURLToPath(new URL("../fixtures/durable-child.mjs", import.meta.url));
const CA_FILE = fileURLToPath(new URL("../fixtures/tls/ca.pem", import.meta.url));

/** Runs the real CLI in its own process; resolves with its exit code and output. */
function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_SECRET_KEY: SECRET_KEY, NODE_EXTRA_CA_CERTS: CA_FILE };
  for (const name of Object.keys(env)) if (/^(VITEST|SVC_TEST_)/.test(name)) delete env[name];
  const proc = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => proc.once("exit", (code) => resolve({ code, out })));
}

/** A durable library service in a child process with a `leaseMs` claim lease. */
function startChild(db: TestDatabase, leaseMs: number): Promise<{ base: string; kill(): Promise<void> }> {
  const env = { ...process.env, CHILD_DATABASE: db.url, CHILD_DATA_DIR: db.dataDir, CHILD_SECRET_KEY: SECRET_KEY, CHILD_LEASE_MS: String(leaseMs), CHILD_CA: CA_FILE };
  const proc = spawn(process.execPath, [CHILD], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (proc.kill("SIGKILL"), reject(new Error(`child did not start:\n${out}`))), 20_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on port (\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({ base: `http://127.0.0.1:${m[1]}`, kill: () => (proc.kill("SIGKILL"), exited) });
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
  });
}

/** Outbox rows `kind`/`state` as the database holds them (read by a plain in-memory service). */
async function outboxRows(db: TestDatabase): Promise<{ kind: string; state: string }[]> {
  const svc = await createService({ database: db.url, dataDir: db.dataDir, blobs: "memory:", secretKey: SECRET_KEY, logger: silentLogger() });
  try {
    return await svc.context.sql.all("SELECT kind, state FROM webhook_outbox ORDER BY kind, state");
  } finally {
    await svc.close();
  }
}

describe.skipIf(!builtCli).each(drivers)("durable delivery across processes on %s", (driver) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const prepare = async (handler?: Parameters<typeof startReceiver>[0]) => {
    const db = await createTestDatabase(driver);
    cleanup.push(() => db.cleanup());
    const receiver: Receiver = await startReceiver(handler);
    cleanup.push(() => receiver.close());
    const demo = await seedDemo(db.url, db.dataDir);
    return { db, receiver, demo };
  };
  const serve = async (db: TestDatabase): Promise<Instance> => {
    const instance = await startInstance({ dataDir: db.dataDir, database: db.url, args: ["--durable-webhooks"] });
    cleanup.push(() => instance.stop("SIGKILL"));
    return instance;
  };
  /** A `posts` collection and a webhook (with `settings`) through the instance's dashboard API; returns its secret. */
  const hook = async (base: string, ownerToken: string, receiver: Receiver, settings: Record<string, unknown> = {}) => {
    const owner = callerAt(base, ownerToken);
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    const { id } = (await owner.post("/api/dashboard/webhooks", { url: receiver.url(), events: ["content.created"] })).expectStatus(201).body;
    return (await owner.put(`/api/dashboard/webhooks/${id}/settings`, settings)).body.secret as string;
  };

  it("svc serve --durable-webhooks: SIGKILL between commit and delivery, restart, the receiver gets it signed", async () => {
    const { db, receiver, demo } = await prepare();
    const first = await serve(db);
    const secret = await hook(first.base, demo.owner, receiver, { debounce_ms: 2500 });
    const { id } = (await callerAt(first.base, demo.owner).post("/api/dashboard/collections/posts/entries", { title: "survives" })).expectStatus(201).body;
    await sleep(300);
    await first.stop("SIGKILL");
    expect(receiver.requests).toHaveLength(0);
    await serve(db);
    const [got] = await receiver.waitFor(1, 8000);
    expect(verified(got!, secret).data.entry).toMatchObject({ id, title: "survives" });
    await sleep(500);
    expect(receiver.requests).toHaveLength(1);
  });

  it("a delivery on the wire when its process is SIGKILLed is sent again by the next one once the lease ends", async () => {
    let hold = true;
    const { db, receiver, demo } = await prepare((_req, res) => (hold ? undefined : res.end("ok")));
    const first = await startChild(db, 1500);
    cleanup.push(() => first.kill());
    const secret = await hook(first.base, demo.owner, receiver);
    (await callerAt(first.base, demo.owner).post("/api/dashboard/collections/posts/entries", { title: "on hold" })).expectStatus(201);
    await receiver.waitFor(1, 5000); // on the wire, never answered
    await first.kill();
    hold = false;
    const second = await startChild(db, 1500);
    cleanup.push(() => second.kill());
    const got = await receiver.waitFor(2, 8000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1000); // not before the dead claim's lease ended
    expect(verified(got[1]!, secret)).toMatchObject({ event: "content.created", data: { entry: { title: "on hold" } } });
    await sleep(300);
    await second.kill();
    // The event's window was handed on and deleted; the delivery is kept as done.
    expect(await outboxRows(db)).toEqual([{ kind: "delivery", state: "done" }]);
  });

  it("two svc serve --durable-webhooks instances on one database send each event once", async () => {
    const { db, receiver, demo } = await prepare();
    const one = await serve(db);
    const two = await serve(db);
    const secret = await hook(one.base, demo.owner, receiver);
    const writes = Array.from({ length: 20 }, (_, i) =>
      callerAt(i % 2 ? one.base : two.base, demo.owner).post("/api/dashboard/collections/posts/entries", { title: `n${i}` }).then((r) => r.body.id as string),
    );
    const ids = await Promise.all(writes);
    await receiver.waitFor(20, 10_000);
    await sleep(1000);
    const seen = receiver.requests.map((q) => verified(q, secret).data.entry.id);
    expect(seen).toHaveLength(20);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("a CLI write while a durable server runs goes to the outbox and the server delivers it", async () => {
    const { db, receiver, demo } = await prepare();
    const server = await serve(db);
    const secret = await hook(server.base, demo.owner, receiver);
    const target = ["--data", db.dataDir, "--database", db.url, "--allow-private-webhook-targets", "--json"];
    const write = await cli(["entries", "create", "posts", "-w", "demo", "--field", "title=from the cli", ...target]);
    expect(write.code, write.out).toBe(0);
    const [got] = await receiver.waitFor(1, 5000);
    expect(verified(got!, secret).data.entry.title).toBe("from the cli");

    // The server is gone (its heartbeat not yet expired): the CLI still only records; the next server delivers.
    await server.stop("SIGKILL");
    const later = await cli(["entries", "create", "posts", "-w", "demo", "--field", "title=while down", ...target]);
    expect(later.code, later.out).toBe(0);
    await sleep(800);
    expect(receiver.requests).toHaveLength(1);
    await serve(db);
    const all = await receiver.waitFor(2, 5000);
    expect(verified(all[1]!, secret).data.entry.title).toBe("while down");
    await sleep(300);
    expect(receiver.requests).toHaveLength(2);
  });
});
