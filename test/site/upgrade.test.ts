/**
 * Upgrading a data directory made before shared site storage: test/fixtures/site-datadir-v0.1.0.tgz
 * was written by `svc site deploy` (two deploys of workspace `legacy`, files stored per deploy).
 * After migration 006 the live site and its rollback target are served where they are; pruning
 * deletes an old deploy's own files; new deploys use the shared layout. The same on PostgreSQL,
 * with the rows and files 0.1.0 writes put in place on a schema migrated to 005.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { scenario, type Caller, type Scenario } from "../helpers/scenario.js";
import { serveService, silentLogger, type ServedService } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite } from "./fixtures.js";

describe("a site deployed before shared storage, after the upgrade", () => {
  let dir: string;
  let svc: Service;
  let served: ServedService;
  let s: Scenario;
  let owner: Caller;
  let wsId: string;
  const page = async (path = "/") => (await owner.get(path)).text;
  const ids = async () => ((await owner.get("/api/dashboard/site/deploys")).expectStatus(200).body.data as { id: string }[]).map((d) => d.id);
  const ownFiles = (deployId: string) => {
    const d = join(dir, "blobs", "site", wsId, deployId);
    return existsSync(d) ? readdirSync(d).length : 0;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-upgrade-"));
    await untar({ file: join(import.meta.dirname, "../fixtures/site-datadir-v0.1.0.tgz"), cwd: dir });
    svc = await createService({ dataDir: dir, keepDeploys: 2, secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger() });
    served = await serveService(svc);
    s = await scenario(served);
    const ws = (await svc.context.workspaces.bySlug("legacy"))!;
    wsId = ws.id;
    owner = s.as(await dashboardToken(svc.context, ws.id, "owner"), { host: "legacy.localhost" });
  });
  afterAll(async () => {
    await s?.close();
    await (served ?? svc)?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the live deploy and rolls back to the older one, both from their own files", async () => {
    expect(await page("/")).toBe("<h1>legacy v2</h1>\n");
    expect(await page("/about")).toBe("<h1>legacy about</h1>\n");
    expect(await page("/css/site.css")).toBe("body{color:red}\n");
    const [v2, v1] = await ids();
    expect(ownFiles(v1!)).toBe(3);
    (await owner.post("/api/dashboard/site/rollback", {})).expectStatus(200);
    expect(await page("/")).toBe("<h1>legacy v1</h1>\n");
    (await owner.post("/api/dashboard/site/rollback", { deploy_id: v2 })).expectBody({ id: v2 });
    expect(await page("/")).toBe("<h1>legacy v2</h1>\n");
  });

  it("prunes old deploys past keepDeploys with their own files; the kept old deploy still serves", async () => {
    const [v2, v1] = await ids();
    const deploy = async (html: string) =>
      (await owner.post("/api/dashboard/site/deploys", undefined, { body: (await packSite({ "index.html": html })) as BodyInit })).expectStatus(201).body.id as string;
    const v3 = await deploy("<h1>v3</h1>");
    expect(await ids()).toEqual([v3, v2]);
    expect([ownFiles(v1!), ownFiles(v2!)]).toEqual([0, 3]);
    expect(await page("/")).toBe("<h1>v3</h1>");
    (await owner.post("/api/dashboard/site/rollback", {})).expectStatus(200);
    expect(await page("/about")).toBe("<h1>legacy about</h1>\n");
    (await owner.post("/api/dashboard/site/rollback", {})).expectStatus(200);
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
    const served = await serveService(svc);
    const s = await scenario(served);
    try {
      const owner = s.as(await dashboardToken(svc.context, ws.id, "owner"), { host: "legacy.localhost" });
      expect((await owner.get("/")).text).toBe(html);
      (await owner.post("/api/dashboard/site/deploys", undefined, { body: (await packSite({ "index.html": "<h1>new</h1>" })) as BodyInit })).expectStatus(201);
      expect((await owner.get("/")).text).toBe("<h1>new</h1>");
      expect(await blobs.hasItem(`site/${ws.id}/${id}/${sha}`)).toBe(false);
      expect((await owner.get("/api/dashboard/site/deploys")).body.data).toHaveLength(1);
    } finally {
      await s.close();
      await served.close();
      await db.cleanup();
    }
  });
});
