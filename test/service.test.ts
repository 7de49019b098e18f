/**
 * The library entry: createService().fetch without any server, and the node handler over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createService, type Service } from "../src/index.js";
import { silentLogger, startTestServer } from "./helpers/server.js";

describe("createService", () => {
  const dirs: string[] = [];
  const services: Service[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), "svc-lib-"));
    dirs.push(d);
    return d;
  };

  it("answers a web Request through fetch with no server", async () => {
    const svc = await createService({ dataDir: tmp(), logger: silentLogger() });
    services.push(svc);
    await svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const unknown = await svc.fetch(new Request("http://nope.example/api/v1/posts"));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Unknown tenant" });
    const known = await svc.fetch(new Request("http://demo.localhost/api/nothing/here"));
    expect(known.status).toBe(404);
    expect(await known.json()).toEqual({ error: "No such endpoint" });
  });

  it("close runs every step when one fails, then throws the first error", async () => {
    const svc = await createService({ dataDir: tmp(), logger: silentLogger() });
    const closed: string[] = [];
    svc.context.webhooks.close = () => Promise.reject(new Error("dispatcher failed"));
    const { deliveryBackfill, shared, sql } = svc.context;
    const track = <T extends { close(): Promise<void> }>(name: string, target: T) => {
      const close = target.close.bind(target);
      target.close = () => (closed.push(name), close());
    };
    track("deliveryBackfill", deliveryBackfill);
    track("shared", shared);
    track("sql", sql);
    await expect(svc.close()).rejects.toThrow("dispatcher failed");
    expect(closed).toEqual(["deliveryBackfill", "shared", "sql"]);
  });

  it("creates the embedded default: SQLite file, blobs dir and a 0600 secret.key", async () => {
    const dir = tmp();
    const svc = await createService({ dataDir: dir, logger: silentLogger() });
    services.push(svc);
    expect(existsSync(join(dir, "contentsvc.db"))).toBe(true);
    expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(svc.context.sql.dialect).toBe("sqlite");
  });

  it("refuses a bad option with a message naming it", async () => {
    await expect(createService({ dataDir: tmp(), redis: "http://nope" })).rejects.toThrow(/invalid option redis/);
    await expect(createService({ dataDir: tmp(), bodyLimit: -1 })).rejects.toThrow(/invalid option bodyLimit/);
    await expect(createService({ dataDir: tmp(), nope: 1 } as never)).rejects.toThrow(/invalid option/);
  });

  it("refuses a malformed SVC secret key with a clear message", async () => {
    await expect(createService({ dataDir: tmp(), secretKey: "c2hvcnQ=", logger: silentLogger() })).rejects.toThrow(/32 bytes/);
  });

  it("serves the node handler over real HTTP", async () => {
    const t = await startTestServer();
    try {
      await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
      const res = await t.request("/api/v1/nothing/at/all");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "No such endpoint" });
    } finally {
      await t.close();
    }
  });
});
