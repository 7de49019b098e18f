/**
 * Site storage over real HTTP: identical files stored once per workspace (by SHA-256), the last
 * `keepDeploys` deploys kept (the replaced one first) and the files no kept deploy references
 * deleted, the per-workspace quota and entry cap (413), concurrent deploys that never lose a file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { siteBlobKey } from "../../src/storage/site-blobs.js";
import { packSite } from "./fixtures.js";

const QUOTA = 100_000;

describe.each(drivers)("site storage on %s", (driver) => {
  let s: ServerScenario;
  let n = 0;

  beforeAll(async () => {
    s = await scenario(driver, { keepDeploys: 3, siteQuota: QUOTA, siteMaxFiles: 20 });
  });
  afterAll(() => s?.close());

  /** A fresh workspace with an owner token, and helpers bound to its host. */
  async function workspace() {
    const slug = `s${++n}`;
    const host = `${slug}.localhost`;
    const ws = await s.svc.context.workspaces.create({ slug, hosts: [host] });
    const owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"), { host });
    const keys = async () => (await s.svc.context.blobs.getKeys(`site/${ws.id}`)).map((k) => k.replaceAll(":", "/")).sort();
    return {
      id: ws.id,
      keys,
      deploy: async (files: Record<string, string | Uint8Array>) => owner.post("/api/dashboard/site/deploys", undefined, { body: (await packSite(files)) as BodyInit }),
      rollback: (json: unknown = {}) => owner.post("/api/dashboard/site/rollback", json),
      deploys: async () => (await owner.get("/api/dashboard/site/deploys")).expectStatus(200).body.data as { id: string; live: boolean }[],
      page: async (path = "/") => (await owner.get(path)).text,
      /** The blob keys the kept deploys reference. */
      referenced: async () => {
        const rows = await s.svc.context.sql.all<{ manifest: string }>("SELECT manifest FROM site_deploys WHERE workspace_id = ?", [ws.id]);
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
      (await s.get("/shared.bin", { host: `s${n}.localhost` })).expectStatus(200);
    }
  });
});
