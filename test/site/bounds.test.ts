/**
 * Deploys bounded as a whole, over real HTTP with bodies that arrive slowly: a deploy takes its
 * workspace's lease before it reads anything (a second deploy of the same site waits without
 * inflating a byte), a service unpacks at most `deployConcurrency` deploys (503 with Retry-After
 * past it), and the site quota stops a deploy while its body is still arriving, leaving the live
 * site and the stored files as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite, rawTar } from "./fixtures.js";
import { openUpload } from "./open-upload.js";

const QUOTA = 1024 * 1024;
/** Four distinct files of 512 KiB: the third passes the quota. */
const fourFiles = () => rawTar(Array.from({ length: 4 }, (_, i) => ({ path: `f${i}.txt`, body: randomBytes(256 * 1024).toString("hex") })), false);
const answeredWithin = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe.each(drivers)("deploy bounds on %s", (driver) => {
  let s: ServerScenario;
  let demo: string;
  let other: string;
  let demoId: string;
  const siteKeys = async (workspaceId: string) => (await s.svc.context.blobs.getKeys(`site:${workspaceId}`)).sort();

  beforeAll(async () => {
    s = await scenario(driver, { deployConcurrency: 1, siteQuota: QUOTA });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const ws2 = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    demoId = ws.id;
    demo = await dashboardToken(s.svc.context, ws.id, "owner");
    other = await dashboardToken(s.svc.context, ws2.id, "owner");
    (await s.as(demo).post("/api/dashboard/site/deploys", undefined, { body: (await packSite({ "index.html": "<p>live</p>" })) as BodyInit })).expectStatus(201);
  });
  afterAll(() => s?.close());

  it("takes the lease before reading: a second deploy of the same site waits, inflating nothing, until the first is done", async () => {
    const archive = rawTar([{ path: "index.html", body: "<p>first</p>" }], false);
    const first = openUpload(s.t.port, "demo.localhost", demo, archive.subarray(0, 512));
    await new Promise((r) => setTimeout(r, 200));
    // A tar.gz gzipped again is refused (415) the moment its first bytes are inflated.
    const bomb = gzipSync(gzipSync(rawTar([{ path: "a.html", body: "a" }], false)));
    const second = s.as(demo).post("/api/dashboard/site/deploys", undefined, { body: bomb, headers: { "content-type": "application/gzip" } });
    expect(await answeredWithin(second, 700)).toBe(false);
    first.finish(archive.subarray(512));
    expect((await first.response).status).toBe(201);
    const refused = await second;
    expect(refused.status).toBe(415);
    expect((await s.get("/")).text).toBe("<p>first</p>");
  });

  it("unpacks at most deployConcurrency deploys at once: one more is refused with 503 and Retry-After before it is read", async () => {
    const archive = rawTar([{ path: "index.html", body: "<p>slow</p>" }], false);
    const slow = openUpload(s.t.port, "demo.localhost", demo, archive.subarray(0, 512));
    await new Promise((r) => setTimeout(r, 200));
    const body = (await packSite({ "index.html": "<p>other</p>" })) as BodyInit;
    const busy = await s.as(other, { host: "other.localhost" }).post("/api/dashboard/site/deploys", undefined, { body });
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(busy.headers.get("connection")).toBe("close");
    expect(busy.body).toEqual({ error: expect.stringMatching(/already unpacking 1 site deploy \(its deployConcurrency\)/), limit: 1, retry_after: 5 });
    slow.finish(archive.subarray(512));
    expect((await slow.response).status).toBe(201);
    const again = await s.as(other, { host: "other.localhost" }).post("/api/dashboard/site/deploys", undefined, { body });
    expect(again.status).toBe(201);
    expect((await s.get("/", { host: "other.localhost" })).text).toBe("<p>other</p>");
  });

  it("stops a deploy with 413 naming the site quota as soon as its files pass it, with the rest of the body still unsent", async () => {
    const before = await siteKeys(demoId);
    const archive = fourFiles();
    // Three of the four files: past the quota, and the end of the archive never arrives.
    const upload = openUpload(s.t.port, "demo.localhost", demo, archive.subarray(0, 3 * (512 + 512 * 1024) + 512));
    const res = await upload.response;
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.body)).toEqual({ error: "The site's files take more than this workspace's site quota of 1048576 bytes", limit: QUOTA });
    upload.finish();
    expect((await s.get("/")).text).toBe("<p>slow</p>");
    // The two files stored before the refusal are gone again.
    expect(await siteKeys(demoId)).toEqual(before);
    expect((await s.svc.context.sql.all("SELECT sha256 FROM site_blobs WHERE workspace_id = ?", [demoId])).length).toBe(before.length);
  });
});
