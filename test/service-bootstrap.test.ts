/**
 * An embedder's first start: with no workspace at all the service logs one line saying how to
 * create one (every request answers `Unknown tenant` until then); the `bootstrap` option creates a
 * first workspace and its owner, only when no workspace exists, so a restart changes nothing.
 * Over real HTTP, on both drivers.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createConsola } from "consola";
import { createService } from "../src/index.js";
import { openDatabase } from "../src/storage/open.js";
import { createTestDatabase, drivers, type TestDatabase } from "./helpers/database.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const SECRET = Buffer.alloc(32, 7).toString("base64");

/** A logger that keeps every line it is given, at every level. */
function capturingLogger() {
  const lines: { type: string; text: string }[] = [];
  const logger = createConsola({ level: 5, reporters: [{ log: (entry) => void lines.push({ type: entry.type, text: entry.args.map(String).join(" ") }) }] });
  return { logger, lines };
}

const bootstrap = (password: string) => ({
  workspace: { slug: "site", hosts: ["site.localhost"], name: "My site" },
  owner: { email: "owner@site.localhost", password },
});

describe.each(drivers)("first start of an embedded service on %s", (driver) => {
  const open: TestDatabase[] = [];
  const newDatabase = async () => {
    const db = await createTestDatabase(driver);
    open.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of open) await db.cleanup();
  });
  const start = (db: TestDatabase, extra: Parameters<typeof createService>[0] = {}) =>
    createService({ dataDir: db.dataDir, database: db.url, blobs: "memory:", secretKey: SECRET, insecureFastPasswordHashing: true, ...extra });

  it("with no workspace at all, its first Unknown tenant logs one line naming how to create one; with one, stays silent", async () => {
    const db = await newDatabase();
    const first = capturingLogger();
    const svc = await start(db, { logger: first.logger });
    const hints = () => first.lines.filter((l) => /No workspace yet/.test(l.text));
    // Not at start: svc serve creates its demo workspace right after, and the line would mislead.
    expect(hints()).toEqual([]);
    const unknown = () => svc.fetch(new Request("http://nowhere.localhost/api/v1/posts"));
    expect((await unknown()).status).toBe(404);
    expect(hints()).toHaveLength(1);
    expect(hints()[0]!.text).toMatch(/Unknown tenant.*svc workspaces create <slug> --host <host>.*`bootstrap` option/);
    expect((await unknown()).status).toBe(404);
    expect(hints()).toHaveLength(1);
    await svc.context.workspaces.create({ slug: "one", hosts: ["one.localhost"] });
    await svc.close();
    const again = capturingLogger();
    const restarted = await start(db, { logger: again.logger });
    expect((await restarted.fetch(new Request("http://nowhere.localhost/api/v1/posts"))).status).toBe(404);
    await restarted.close();
    expect(again.lines.filter((l) => /No workspace yet/.test(l.text))).toEqual([]);
  });

  it("bootstrap creates the workspace and its owner once; a restart with it changes nothing", async () => {
    let t: TestServer | undefined;
    const db = await newDatabase();
    const quiet = capturingLogger();
    try {
      t = await startTestServer(driver, { dataDir: db.dataDir, database: db.url, bootstrap: bootstrap("first-password-1"), logger: quiet.logger });
      expect(quiet.lines.filter((l) => /No workspace yet/.test(l.text))).toEqual([]);
      const login = (password: string) => t!.request("/api/dashboard/login", { host: "site.localhost", method: "POST", json: { email: "owner@site.localhost", password } });
      const signedIn = await login("first-password-1");
      expect(signedIn.status).toBe(200);
      expect(await signedIn.json()).toMatchObject({ role: "owner" });
      await t.close();
      t = undefined;

      // A restart with a changed bootstrap: a workspace exists, so nothing is created or changed.
      t = await startTestServer(driver, { dataDir: db.dataDir, database: db.url, bootstrap: { ...bootstrap("other-password-2"), workspace: { slug: "second", hosts: ["second.localhost"] } } });
      expect((await t.svc.context.workspaces.list()).map((w) => w.slug)).toEqual(["site"]);
      expect((await login("first-password-1")).status).toBe(200);
      expect((await login("other-password-2")).status).toBe(401);
      expect((await t.request("/api/v1/posts", { host: "second.localhost" })).status).toBe(404);
    } finally {
      await t?.close();
    }
  });

  it("a bootstrap whose owner is invalid fails the start naming the option, and creates nothing", async () => {
    const db = await newDatabase();
    await expect(start(db, { logger: capturingLogger().logger, bootstrap: bootstrap("short") })).rejects.toThrow(/^contentsvc: invalid option bootstrap: .*password/);
    const svc = await start(db, { logger: capturingLogger().logger });
    expect(await svc.context.workspaces.count()).toBe(0);
    await svc.close();
  });

  it("a failed start in durable webhook mode stops its dispatcher: no heartbeat left behind or renewed", async () => {
    const db = await newDatabase();
    // The database is the test's, so it stays open after the failed start: a live poller would go on writing.
    const sql = await openDatabase(db.url);
    try {
      const webhooks = { durable: true, durableLeaseMs: 150, durablePollMs: 20 } as const;
      await expect(start(db, { database: sql, logger: capturingLogger().logger, webhooks, bootstrap: bootstrap("short") })).rejects.toThrow(/invalid option bootstrap/);
      const heartbeats = async () => Number((await sql.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM webhook_dispatchers"))!.n);
      expect(await heartbeats()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200)); // several renewals (every 50 ms) had the dispatcher lived on
      expect(await heartbeats()).toBe(0);
    } finally {
      await sql.close();
    }
  });
});
