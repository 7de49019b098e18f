/**
 * Decompression bombs over real HTTP: a tar.gz whose tar is gzipped again, and payloads compressed
 * with other formats, are refused (415) quickly without inflating the inner layer; a large honest
 * deploy, and the bomb, never hold the process: another workspace's site keeps answering meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { Pax } from "tar";
import { drivers } from "../helpers/database.js";
import { scenario, type Result, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { packSite, rawTar } from "./fixtures.js";
import { uploadFromChild } from "./upload.js";

// Generous for a loaded CI machine; the unfixed service stalled other workspaces for over a minute.
const READ_BOUND_MS = 500;

describe.each(drivers)("site deploy decompression bombs on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  const deploy = (body: Uint8Array) =>
    s.as(owner).post("/api/dashboard/site/deploys", undefined, { body: body as BodyInit, headers: { "content-type": "application/gzip" } });

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = await dashboardToken(s.svc.context, ws.id, "owner");
    const otherOwner = await dashboardToken(s.svc.context, other.id, "owner");
    const body = await packSite({ "index.html": "<p>other</p>" });
    (await s.as(otherOwner, { host: "other.localhost" }).post("/api/dashboard/site/deploys", undefined, { body: body as BodyInit })).expectStatus(201);
    expect((await deploy(await packSite({ "index.html": "<p>live</p>" }))).status).toBe(201);
  });
  afterAll(() => s?.close());

  /** Runs `work` while reading the other workspace's home page back to back; the slowest read, ms. */
  async function slowestReadDuring(work: () => Promise<unknown>): Promise<{ slowest: number; reads: number }> {
    let running = true;
    let slowest = 0;
    let reads = 0;
    const reader = (async () => {
      while (running) {
        const started = performance.now();
        expect((await s.get("/", { host: "other.localhost" })).text).toBe("<p>other</p>");
        slowest = Math.max(slowest, performance.now() - started);
        reads++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      await work();
    } finally {
      running = false;
      await reader;
    }
    return { slowest, reads };
  }

  it("refuses a tar.gz whose tar is gzipped again (415) quickly, without inflating the inner layer", async () => {
    // 48 files of 1 MiB: under every per-file and total cap, so only the nesting can refuse it.
    const mib = "0".repeat(1024 * 1024);
    const inner = gzipSync(rawTar(Array.from({ length: 48 }, (_, i) => ({ path: `zeros${i}.html`, body: mib })), false), { level: 9 });
    const bomb = gzipSync(inner, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    let res: Result | undefined;
    const started = performance.now();
    const { slowest } = await slowestReadDuring(async () => (res = await deploy(bomb)));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res!.status).toBe(415);
    expect(res!.body.error).toMatch(/compressed twice \(gzip inside gzip\)/);
    expect(slowest).toBeLessThan(READ_BOUND_MS);
    expect((await s.get("/")).text).toBe("<p>live</p>");
  });

  it("counts every inflated byte against the cap, headers included (413)", async () => {
    // 1,200 entries with 60 KB PAX headers: 73 MB of tar that no file-size cap sees.
    const entry = Buffer.concat([new Pax({ comment: "x".repeat(60_000), path: "a.txt", mtime: new Date(0) }).encode(), rawTar([{ path: "a.txt", body: "a" }], false).subarray(0, 1024)]);
    const res = await deploy(gzipSync(Buffer.concat(Array.from({ length: 1200 }, () => entry)), { level: 9 }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.stringMatching(/expands to more than the limit/), limit: s.svc.context.options.uploadLimit });
  });

  it("stops reading at the end of the archive: padding after it is never inflated", async () => {
    const tar = rawTar([{ path: "index.html", body: "<p>padded</p>" }], false);
    const padded = gzipSync(Buffer.concat([tar, Buffer.alloc(200 * 1024 * 1024)]), { level: 9 });
    const started = performance.now();
    const res = await deploy(padded);
    expect(res.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(3000);
    expect((await s.get("/")).text).toBe("<p>padded</p>");
  });

  it.each<[string, Uint8Array, RegExp]>([
    ["zstd inside gzip", gzipSync(Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), randomBytes(600)])), /zstd inside gzip/],
    ["bzip2 inside gzip", gzipSync(Buffer.concat([Buffer.from("BZh9"), randomBytes(600)])), /bzip2 inside gzip/],
    ["xz inside gzip", gzipSync(Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), randomBytes(600)])), /xz inside gzip/],
    ["a zstd body", Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), randomBytes(600)]), /compressed with zstd/],
    ["an xz body", Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), randomBytes(600)]), /compressed with xz/],
  ])("refuses %s (415)", async (_name, body, why) => {
    const res = await deploy(body);
    expect(res.status).toBe(415);
    expect(res.body.error).toMatch(why);
  });

  it("keeps other workspaces answering while a large deploy is processed", async () => {
    const files: Record<string, Uint8Array> = {};
    // 2,000 distinct pages, 44 MB that gzip to well under 1 MB: a small upload, a lot of archive work.
    for (let i = 0; i < 2000; i++) files[`pages/p${i}.html`] = new TextEncoder().encode(`<h1>page ${i}</h1>${"<p>lorem ipsum dolor sit amet</p>".repeat(640)}`);
    files["index.html"] = new TextEncoder().encode("<p>large</p>");
    const archive = await packSite(files);
    let res: { status: number; body: string } | undefined;
    const started = performance.now();
    const { slowest, reads } = await slowestReadDuring(async () => (res = await uploadFromChild(s.t.port, owner, archive)));
    const took = performance.now() - started;
    expect(res!.status).toBe(201);
    expect(JSON.parse(res!.body).file_count).toBe(2001);
    expect(reads).toBeGreaterThan(3);
    expect(slowest, `slowest read ${slowest.toFixed(0)} ms during a ${took.toFixed(0)} ms deploy`).toBeLessThan(READ_BOUND_MS);
    expect((await s.get("/")).text).toBe("<p>large</p>");
  });
});
