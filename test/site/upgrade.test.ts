/**
 * Upgrading a data directory made before shared site storage: test/fixtures/site-datadir-v0.1.0.tgz
 * was written by `svc site deploy` (two deploys of workspace `legacy`, files stored per deploy).
 * After migration 006 the live site and its rollback target are served where they are; pruning
 * deletes an old deploy's own files; new deploys use the shared layout. The same on PostgreSQL,
 * with the rows and files 0.1.0 writes put in place on a schema migrated to 005.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { x as untar } from "tar";
import { createStorage } from "unstorage";
import { createService, type Service } from "../../src/service.js";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { createTestDatabase, drivers } from "../helpers/database.js";
import { requestAt, silentLogger } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite } from "./fixtures.js";

describe("a site deployed before shared storage, after the upgrade", () => {
  let dir: string;
  let svc: Service;
  let server: Server;
  let base: string;
  let token: string;
  let wsId: string;
  const req = (path: string, init: Parameters<typeof requestAt>[2] = {}) => requestAt(base, path, { host: "legacy.localhost", token, ...init });
  const page = async (path = "/") => (await req(path)).text();
  const ids = async () => ((await (await req("/api/dashboard/site/deploys")).json()).data as { id: string }[]).map((d) => d.id);
  const ownFiles = (deployId: string) => {
    const d = join(dir, "blobs", "site", wsId, deployId);
    return existsSync(d) ? readdirSync(d).length : 0;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-upgrade-"));
    await untar({ file: join(import.meta.dirname, "../fixtures/site-datadir-v0.1.0.tgz"), cwd: dir });
    svc = await createService({ dataDir: dir, keepDeploys: 2, secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
    server = createServer(svc.handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ws = (await svc.context.workspaces.bySlug("legacy"))!;
    wsId = ws.id;
    token = await dashboardToken(svc.context, ws.id, "owner");
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the live deploy and rolls back to the older one, both from their own files", async () => {
    expect(await page("/")).toBe("<h1>legacy v2</h1>\n");
    expect(await page("/about")).toBe("<h1>legacy about</h1>\n");
    expect(await page("/css/site.css")).toBe("body{color:red}\n");
    const [v2, v1] = await ids();
    expect(ownFiles(v1!)).toBe(3);
    expect((await req("/api/dashboard/site/rollback", { method: "POST", json: {} })).status).toBe(200);
    expect(await page("/")).toBe("<h1>legacy v1</h1>\n");
    expect(await (await req("/api/dashboard/site/rollback", { method: "POST", json: { deploy_id: v2 } })).json()).toMatchObject({ id: v2 });
    expect(await page("/")).toBe("<h1>legacy v2</h1>\n");
  });

  it("prunes old deploys past keepDeploys with their own files; the kept old deploy still serves", async () => {
    const [v2, v1] = await ids();
    const deploy = async (html: string) => {
      const res = await req("/api/dashboard/site/deploys", { method: "POST", body: (await packSite({ "index.html": html })) as BodyInit });
      expect(res.status).toBe(201);
      return (await res.json()).id as string;
    };
    const v3 = await deploy("<h1>v3</h1>");
    expect(await ids()).toEqual([v3, v2]);
    expect([ownFiles(v1!), ownFiles(v2!)]).toEqual([0, 3]);
    expect(await page("/")).toBe("<h1>v3</h1>");
    expect((await req("/api/dashboard/site/rollback", { method: "POST", json: {} })).status).toBe(200);
    expect(await page("/about")).toBe("<h1>legacy about</h1>\n");
    expect((await req("/api/dashboard/site/rollback", { method: "POST", json: {} })).status).toBe(200);
    const v4 = await deploy("<h1>v4</h1>");
    expect(await ids()).toEqual([v4, v3]);
    expect(ownFiles(v2!)).toBe(0);
    expect((await svc.context.blobs.getKeys(`site/${wsId}`)).every((k) => k.includes(":sha256:"))).toBe(true);
  });
});

describe.each(drivers)("a deploy stored before migration 006, on %s", (driver) => {
  it("is served from its own files after the upgrade, and pruned with them", async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    await migrate(sql, migrations.filter((m) => m.id <= 5));
    // The workspace as 0.1.0 wrote it: today's repository would write columns later migrations add.
    const ws = { id: randomUUID() };
    await sql.run("INSERT INTO workspaces (id, slug, name, identity, created_at) VALUES (?, 'legacy', 'legacy', 0, ?)", [ws.id, "2026-01-01T00:00:00.000Z"]);
    await sql.run("INSERT INTO workspace_hosts (host, workspace_id) VALUES ('legacy.localhost', ?)", [ws.id]);
    const html = "<h1>from 0.1.0</h1>";
    const sha = createHash("sha256").update(html).digest("hex");
    const id = randomUUID();
    const blobs = createStorage();
    // What 0.1.0 wrote: a row without a layout, the bytes under site/<workspace>/<deploy>/<sha256>.
    const manifest = { "index.html": { size: html.length, sha256: sha, content_type: "text/html; charset=utf-8" } };
    await sql.run("INSERT INTO site_deploys (id, workspace_id, file_count, size, manifest, created_at) VALUES (?, ?, 1, ?, ?, ?)", [id, ws.id, html.length, JSON.stringify(manifest), "2026-01-01T00:00:00.000Z"]);
    await sql.run("INSERT INTO site_live (workspace_id, deploy_id, previous_deploy_id, updated_at) VALUES (?, ?, NULL, ?)", [ws.id, id, "2026-01-01T00:00:00.000Z"]);
    await blobs.setItemRaw(`site/${ws.id}/${id}/${sha}`, Buffer.from(html));
    await sql.close();

    const svc = await createService({ database: db.url, blobs, keepDeploys: 1, dataDir: db.dataDir, secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
    const server = createServer(svc.handler);
    try {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const token = await dashboardToken(svc.context, ws.id, "owner");
      const req = (path: string, init: Parameters<typeof requestAt>[2] = {}) => requestAt(base, path, { host: "legacy.localhost", token, ...init });
      expect(await (await req("/")).text()).toBe(html);
      const res = await req("/api/dashboard/site/deploys", { method: "POST", body: (await packSite({ "index.html": "<h1>new</h1>" })) as BodyInit });
      expect(res.status).toBe(201);
      expect(await (await req("/")).text()).toBe("<h1>new</h1>");
      expect(await blobs.hasItem(`site/${ws.id}/${id}/${sha}`)).toBe(false);
      expect((await (await req("/api/dashboard/site/deploys")).json()).data).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
      await db.cleanup();
    }
  });
});
