/**
 * Upgrading a data directory made before shared site storage: test/fixtures/site-datadir-v0.1.0.tgz
 * was written by `svc site deploy` (two deploys of workspace `legacy`, files stored per deploy).
 * After migration 006 the live site and its rollback target are served where they are; pruning
 * deletes an old deploy's own files; new deploys use the shared layout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { x as untar } from "tar";
import { createService, type Service } from "../../src/service.js";
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
