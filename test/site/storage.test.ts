/**
 * Site storage over real HTTP: identical files stored once per workspace (by SHA-256), the last
 * `keepDeploys` deploys kept (the replaced one first) and the files no kept deploy references
 * deleted, the per-workspace quota and entry cap (413), concurrent deploys that never lose a file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { siteBlobKey } from "../../src/storage/site-blobs.js";
import { packSite } from "./fixtures.js";

const QUOTA = 100_000;

describe.each(drivers)("site storage on %s", (driver) => {
  let t: TestServer;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer(driver, { keepDeploys: 3, siteQuota: QUOTA, siteMaxFiles: 20 });
  });
  afterAll(() => t?.close());

  /** A fresh workspace with an owner token, and helpers bound to its host. */
  async function workspace() {
    const slug = `s${++n}`;
    const host = `${slug}.localhost`;
    const ws = await t.svc.context.workspaces.create({ slug, hosts: [host] });
    const token = await dashboardToken(t.svc.context, ws.id, "owner");
    const keys = async () => (await t.svc.context.blobs.getKeys(`site/${ws.id}`)).map((k) => k.replaceAll(":", "/")).sort();
    return {
      id: ws.id,
      keys,
      deploy: async (files: Record<string, string | Uint8Array>) => {
        const res = await t.request("/api/dashboard/site/deploys", { method: "POST", body: (await packSite(files)) as BodyInit, token, host });
        return { status: res.status, body: await res.json() };
      },
      rollback: async (json: unknown = {}) => {
        const res = await t.request("/api/dashboard/site/rollback", { method: "POST", json, token, host });
        return { status: res.status, body: await res.json() };
      },
      deploys: async () => (await (await t.request("/api/dashboard/site/deploys", { token, host })).json()).data as { id: string; live: boolean }[],
      page: async (path = "/") => (await t.request(path, { host })).text(),
      /** The blob keys the kept deploys reference. */
      referenced: async () => {
        const rows = await t.svc.context.sql.all<{ manifest: string }>("SELECT manifest FROM site_deploys WHERE workspace_id = ?", [ws.id]);
        const shas = rows.flatMap((r) => Object.values(JSON.parse(r.manifest) as Record<string, { sha256: string }>).map((f) => f.sha256));
        return [...new Set(shas)].map((sha) => siteBlobKey(ws.id, sha)).sort();
      },
    };
  }

  it("stores identical files once: five deploys of one 48 KB site add its files once", async () => {
    const w = await workspace();
    const big = randomBytes(48_000);
    for (let i = 1; i <= 5; i++) {
      const copies = Object.fromEntries(Array.from({ length: 10 }, (_, c) => [`copy${c}.bin`, big]));
      expect((await w.deploy({ "index.html": "<h1>same</h1>", "big.bin": big, ...copies })).status).toBe(201);
    }
    expect(await w.keys()).toHaveLength(2);
    expect(await w.keys()).toEqual(await w.referenced());
    expect(await w.page()).toBe("<h1>same</h1>");
  });

  it("keeps the last keepDeploys deploys, deletes the files only older ones used; rollback targets are the kept ones", async () => {
    const w = await workspace();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await w.deploy({ "index.html": `<h1>v${i}</h1>`, "style.css": "body{}" })).body.id);
    expect((await w.deploys()).map((d) => d.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(await w.keys()).toHaveLength(4);
    expect(await w.keys()).toEqual(await w.referenced());
    expect((await w.rollback({ deploy_id: ids[0] })).status).toBe(404);
    expect((await w.rollback()).body).toMatchObject({ id: ids[3], live: true });
    expect(await w.page()).toBe("<h1>v4</h1>");
    // The deploy a new one replaces is kept first, even when older than the rest.
    expect((await w.rollback({ deploy_id: ids[2] })).status).toBe(200);
    const v6 = (await w.deploy({ "index.html": "<h1>v6</h1>", "style.css": "body{}" })).body;
    expect(v6.previous_deploy_id).toBe(ids[2]);
    expect((await w.deploys()).map((d) => d.id)).toEqual([v6.id, ids[4], ids[2]]);
    expect(await w.keys()).toEqual(await w.referenced());
    expect((await w.rollback()).body).toMatchObject({ id: ids[2] });
    expect(await w.page()).toBe("<h1>v3</h1>");
  });

  it("enforces the site quota: 413 for a deploy larger alone, older deploys dropped to make room", async () => {
    const w = await workspace();
    const small = (await w.deploy({ "index.html": "<h1>small</h1>" })).body.id;
    const before = await w.keys();
    const tooBig = await w.deploy({ "a.bin": randomBytes(60_000), "b.bin": randomBytes(60_000) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ error: expect.stringMatching(/more than this workspace's site quota of 100000 bytes/), limit: QUOTA });
    expect(await w.keys()).toEqual(before);
    const a = (await w.deploy({ "index.html": "<h1>a</h1>", "a.bin": randomBytes(60_000) })).body.id;
    const b = await w.deploy({ "index.html": "<h1>b</h1>", "b.bin": randomBytes(60_000) });
    expect(b.status).toBe(201);
    // a and b together would pass the quota: a goes, and with it everything older.
    expect((await w.deploys()).map((d) => d.id)).toEqual([b.body.id]);
    expect([a, small]).not.toContain(b.body.id);
    expect(await w.keys()).toEqual(await w.referenced());
    expect(await w.rollback()).toMatchObject({ status: 409, body: { error: expect.stringMatching(/no previous deploy/) } });
    expect(await w.page()).toBe("<h1>b</h1>");
  });

  it("caps the entries of one deploy (siteMaxFiles) with 413", async () => {
    const w = await workspace();
    const files = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.txt`, `${i}`]));
    const res = await w.deploy(files);
    expect(res).toEqual({ status: 413, body: { error: "Archive has more than 20 entries", limit: 20 } });
    expect(await w.keys()).toEqual([]);
  });

  it("concurrent deploys of one workspace all go live in turn and never lose a file", async () => {
    const w = await workspace();
    const shared = randomBytes(5_000);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => w.deploy({ "index.html": `<h1>c${i}</h1>`, "shared.bin": shared, [`own${i}.bin`]: randomBytes(3_000) })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const kept = await w.deploys();
    expect(kept).toHaveLength(3);
    expect(await w.keys()).toEqual(await w.referenced());
    for (const d of kept) {
      expect((await w.rollback({ deploy_id: d.id })).status).toBe(200);
      expect(await w.page()).toMatch(/<h1>c\d<\/h1>/);
      expect((await t.request("/shared.bin", { host: `s${n}.localhost` })).status).toBe(200);
    }
  });
});
