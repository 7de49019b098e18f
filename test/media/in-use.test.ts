/**
 * Media that entries use (docs/media.md "Deleting an asset that entries use"): the delete counts
 * the entries holding the asset in any media field of any collection, drafts included, and is
 * refused with 409 `{error, used_by}` unless forced (`?force=true` over HTTP, `--force` in the
 * CLI); an unused asset deletes as before. Also the filename search and the by-id read the
 * dashboard's pickers use.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/index.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";

const HOST = "demo.localhost";

describe.each(drivers)("media in use on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let reader: Caller;
  let blobs: string;
  let other: Caller;

  const upload = async (filename: string, as: Caller = owner) =>
    (await as.post(`/api/dashboard/media?filename=${encodeURIComponent(filename)}`, undefined, { body: "bytes", headers: { "content-type": "text/plain" } })).expectStatus(201)
      .body as { id: string; filename: string };
  const entry = async (collection: string, values: Record<string, unknown>) =>
    (await owner.post(`/api/dashboard/collections/${collection}/entries`, values)).expectStatus(201).body as { id: string };

  /** Runs the CLI in this process on the server's database; `--json` output. */
  async function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const code = await runCli(["--data", s.t.db.dataDir, "--database", s.t.db.url, "--blobs", blobs, "--json", ...args]);
      return { code, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.exitCode = undefined;
    }
  }

  beforeAll(async () => {
    blobs = mkdtempSync(join(tmpdir(), "svc-media-in-use-"));
    s = await scenario(driver, { blobs });
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: [HOST] });
    const ws2 = await ctx.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = s.as(await dashboardToken(ctx, ws.id), { host: HOST });
    reader = s.as(await apiKey(ctx, ws.id, ["media:read"]), { host: HOST });
    other = s.as(await dashboardToken(ctx, ws2.id), { host: "other.localhost" });
    const posts = { name: "posts", fields: [{ name: "title", type: "string" }, { name: "photo", type: "media" }, { name: "cover", type: "media" }] };
    (await owner.post("/api/dashboard/collections", posts)).expectStatus(201);
    (await owner.post("/api/dashboard/collections", { name: "pages", fields: [{ name: "hero", type: "media" }] })).expectStatus(201);
    (await owner.post("/api/dashboard/collections", { name: "notes", fields: [{ name: "text", type: "string" }] })).expectStatus(201);
    (await other.post("/api/dashboard/collections", { name: "posts", fields: [{ name: "photo", type: "media" }] })).expectStatus(201);
  });
  afterAll(async () => {
    await s?.close();
    if (blobs) rmSync(blobs, { recursive: true, force: true });
  });

  it("counts every entry holding the asset (any media field, any collection, drafts too) and refuses the delete with 409 {error, used_by}", async () => {
    const asset = await upload("shared.png");
    const spare = await upload("spare.png");
    await entry("posts", { title: "draft", photo: asset.id });
    await entry("posts", { title: "both fields: one entry", photo: asset.id, cover: asset.id, _status: "published" });
    await entry("posts", { title: "other asset", photo: spare.id });
    await entry("pages", { hero: asset.id });
    // A string equal to the id in a non-media field is not a use.
    await entry("notes", { text: asset.id });
    const res = (await owner.delete(`/api/dashboard/media/${asset.id}`)).expectStatus(409);
    expect(res.body).toEqual({ error: "shared.png is used by 3 entries; send ?force=true to delete it anyway", used_by: 3 });
    (await owner.get(`/api/dashboard/media/${asset.id}`)).expectStatus(200);
    (await owner.delete(`/api/dashboard/media/${asset.id}?force=false`)).expectStatus(409);
    (await owner.delete(`/api/dashboard/media/${spare.id}`)).expectStatus(409).expectBody({ error: "spare.png is used by 1 entry; send ?force=true to delete it anyway", used_by: 1 });
  });

  it("?force=true (or 1) deletes it; the entries keep the id, a save that leaves the field alone works, null clears it", async () => {
    const asset = await upload("forced.png");
    const post = await entry("posts", { title: "uses it", photo: asset.id });
    (await owner.delete(`/api/dashboard/media/${asset.id}?force=true`)).expectStatus(204);
    (await owner.get(`/api/dashboard/media/${asset.id}`)).expectStatus(404);
    (await s.get(`/api/v1/media/${asset.id}`, { host: HOST })).expectStatus(404);
    (await owner.get(`/api/dashboard/collections/posts/entries/${post.id}`)).expectStatus(200).expectBody({ photo: asset.id });
    (await owner.patch(`/api/dashboard/collections/posts/entries/${post.id}`, { photo: asset.id })).expectStatus(400).expectBody({ field: "photo" });
    (await owner.patch(`/api/dashboard/collections/posts/entries/${post.id}`, { title: "renamed" })).expectStatus(200);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${post.id}`, { photo: null })).expectStatus(200).expectBody({ photo: null });

    const second = await upload("forced-1.png");
    await entry("pages", { hero: second.id });
    (await owner.delete(`/api/dashboard/media/${second.id}?force=1`)).expectStatus(204);
  });

  it("an unused asset deletes without force; an unknown one is 404 either way", async () => {
    const asset = await upload("unused.png");
    (await owner.delete(`/api/dashboard/media/${asset.id}`)).expectStatus(204);
    (await owner.delete(`/api/dashboard/media/${asset.id}`)).expectStatus(404);
    (await owner.delete(`/api/dashboard/media/${asset.id}?force=true`)).expectStatus(404);
  });

  it("another workspace's entries never count", async () => {
    const asset = await upload("mine.png");
    const theirs = await upload("theirs.png", other);
    (await other.post("/api/dashboard/collections/posts/entries", { photo: theirs.id })).expectStatus(201);
    (await owner.delete(`/api/dashboard/media/${asset.id}`)).expectStatus(204);
    (await other.delete(`/api/dashboard/media/${theirs.id}`)).expectStatus(409).expectBody({ used_by: 1 });
  });

  it("refuses a malformed or repeated force", async () => {
    const asset = await upload("flags.png");
    (await owner.delete(`/api/dashboard/media/${asset.id}?force=yes`)).expectStatus(400).expectBody({ error: "force: expected true or false", parameter: "force" });
    (await owner.delete(`/api/dashboard/media/${asset.id}?force=true&force=true`)).expectStatus(400).expectBody({ parameter: "force" });
  });

  it("svc media delete refuses an asset in use with the count and deletes it with --force", async () => {
    const asset = await upload("cli.png");
    await entry("pages", { hero: asset.id });
    const refused = await svc("media", "delete", asset.id, "-w", "demo");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(JSON.parse(refused.stderr)).toEqual({ error: "cli.png is used by 1 entry; add --force to delete it anyway", used_by: 1 });
    (await owner.get(`/api/dashboard/media/${asset.id}`)).expectStatus(200);
    const forced = await svc("media", "delete", asset.id, "-w", "demo", "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ id: asset.id, deleted: true });
    (await owner.get(`/api/dashboard/media/${asset.id}`)).expectStatus(404);
    const unused = await upload("cli-unused.png");
    expect((await svc("media", "delete", unused.id, "-w", "demo")).code).toBe(0);
  });

  it("GET /api/dashboard/media/{id} reads one record (media:read); another workspace's asset is 404", async () => {
    const asset = await upload("one.png");
    const record = (await reader.get(`/api/dashboard/media/${asset.id}`)).expectStatus(200).body;
    expect(record).toEqual(asset);
    const theirs = await upload("theirs-2.png", other);
    (await owner.get(`/api/dashboard/media/${theirs.id}`)).expectStatus(404);
    (await owner.get("/api/dashboard/media/not-a-uuid")).expectStatus(404);
    (await s.as(await apiKey(s.svc.context, (await s.svc.context.workspaces.bySlug("demo"))!.id, ["entries:read"]), { host: HOST }).get(`/api/dashboard/media/${asset.id}`))
      .expectStatus(403)
      .expectBody({ grant: "media:read" });
  });

  it("?search= keeps filenames holding the text, ignoring case, with % and _ as plain characters; the total counts the matches", async () => {
    for (const name of ["Search-Alpha.PNG", "search-beta.png", "100%_done.txt", "1000 done.txt"]) await upload(name);
    const names = async (search: string) => {
      const body = (await reader.get(`/api/dashboard/media?search=${encodeURIComponent(search)}&limit=100`)).expectStatus(200).body;
      expect(body.meta.total).toBe(body.data.length);
      return (body.data as { filename: string }[]).map((m) => m.filename).sort();
    };
    expect(await names("SEARCH-")).toEqual(["Search-Alpha.PNG", "search-beta.png"]);
    expect(await names("alpha.png")).toEqual(["Search-Alpha.PNG"]);
    expect(await names("%_")).toEqual(["100%_done.txt"]);
    expect(await names("0_d")).toEqual([]);
    expect(await names("nothing like it")).toEqual([]);
    const paged = (await reader.get("/api/dashboard/media?search=search-&limit=1&offset=1")).expectStatus(200).body;
    expect(paged.meta).toEqual({ total: 2, limit: 1, offset: 1 });
    expect(paged.data).toHaveLength(1);
    // Empty is no search at all.
    const all = (await reader.get("/api/dashboard/media?search=&limit=1")).expectStatus(200).body;
    const unfiltered = (await reader.get("/api/dashboard/media?limit=1")).expectStatus(200).body;
    expect(all.meta.total).toBe(unfiltered.meta.total);
    (await reader.get(`/api/dashboard/media?search=${"x".repeat(101)}`)).expectStatus(400).expectBody({ error: "search: at most 100 characters", parameter: "search" });
    (await reader.get("/api/dashboard/media?search=a&search=b")).expectStatus(400).expectBody({ parameter: "search" });
  });
});
