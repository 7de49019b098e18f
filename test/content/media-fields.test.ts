/**
 * A media field holds the id of an asset of the entry's own workspace, checked on every write
 * like a relation: a malformed id, an unknown id or another workspace's asset is a 400 naming the
 * field, over HTTP (create and PATCH), MCP (create_item and update_item) and the CLI alike, and
 * the refused write changes nothing.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomUUID } from "node:crypto";
import { createService } from "../../src/service.js";
import { createCollection } from "../../src/services/collections.js";
import { OPERATOR } from "../../src/services/gates.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { silentLogger } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";

const POSTS = { name: "posts", access: "private", fields: [{ name: "title", type: "string", required: true }, { name: "cover", type: "media" }] };
/** Each bad value, and what the error says about it. */
const BAD: ReadonlyArray<readonly [string, (ids: { foreign: string }) => unknown, RegExp]> = [
  ["a malformed id", () => "cover.jpg", /^cover: must be a media id/],
  ["an id of no asset", () => randomUUID(), /^cover: no media asset [0-9a-f-]{36} in this workspace$/],
  ["another workspace's asset", ({ foreign }) => foreign, /^cover: no media asset [0-9a-f-]{36} in this workspace$/],
  ["a number", () => 42, /^cover: must be a media id/],
];

describe.each(drivers)("media fields on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  let client: Client;
  const ids = { asset: "", foreign: "", entry: "" };

  let mine: Caller;
  const upload = async (host: string, token: string) =>
    ((await s.as(token, { host }).post("/api/dashboard/media?filename=cover.txt", undefined, { body: "bytes", headers: { "content-type": "text/plain" } })).expectStatus(201).body as { id: string }).id;

  beforeAll(async () => {
    s = await scenario(driver);
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "mine", hosts: [MCP_HOST] });
    const other = await ctx.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = await dashboardToken(ctx, ws.id);
    mine = s.as(owner, { host: MCP_HOST });
    ids.asset = await upload(MCP_HOST, owner);
    ids.foreign = await upload("other.localhost", await dashboardToken(ctx, other.id));
    expect((await mine.post("/api/dashboard/collections", POSTS)).status).toBe(201);
    const first = await mine.post("/api/dashboard/collections/posts/entries", { title: "First", cover: ids.asset });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.cover).toBe(ids.asset);
    ids.entry = first.body.id;
    client = await connectClient(s.t, await apiKey(ctx, ws.id, ["entries:write"]));
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  const stored = async () => (await mine.get(`/api/dashboard/collections/posts/entries/${ids.entry}`)).body;
  const total = async () => (await mine.get("/api/dashboard/collections/posts/entries")).body.meta.total;

  it.each(BAD)("HTTP create refuses %s with a 400 naming the field", async (_what, value, message) => {
    const before = await total();
    const res = await mine.post("/api/dashboard/collections/posts/entries", { title: "x", cover: value(ids) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: "cover", error: expect.stringMatching(message) });
    expect(await total()).toBe(before);
  });

  it.each(BAD)("HTTP PATCH refuses %s with a 400 naming the field, the entry unchanged", async (_what, value, message) => {
    const before = await stored();
    const res = await mine.patch(`/api/dashboard/collections/posts/entries/${ids.entry}`, { title: "changed", cover: value(ids) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: "cover", error: expect.stringMatching(message) });
    expect(await stored()).toEqual(before);
  });

  it("HTTP accepts the workspace's own asset, null clears, and a patch that leaves the field alone is not checked again", async () => {
    expect((await mine.patch(`/api/dashboard/collections/posts/entries/${ids.entry}`, { cover: null })).body.cover).toBeNull();
    expect((await mine.patch(`/api/dashboard/collections/posts/entries/${ids.entry}`, { cover: ids.asset })).body.cover).toBe(ids.asset);
    expect((await mine.patch(`/api/dashboard/collections/posts/entries/${ids.entry}`, { title: "renamed" })).status).toBe(200);
  });

  it.each(BAD)("MCP create_item and update_item refuse %s, naming the field", async (_what, value, message) => {
    const before = await stored();
    const created = await callTool(client, "create_item", { collection: "posts", fields: { title: "x", cover: value(ids) } });
    expect(created.isError).toBe(true);
    expect(created.text).toMatch(message);
    expect(created.structured).toMatchObject({ field: "cover" });
    const updated = await callTool(client, "update_item", { collection: "posts", id: ids.entry, fields: { cover: value(ids) } });
    expect(updated.isError).toBe(true);
    expect(updated.text).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it("MCP create_item accepts the workspace's own asset", async () => {
    const created = await callTool(client, "create_item", { collection: "posts", fields: { title: "y", cover: ids.asset } });
    expect(created.isError, created.text).toBe(false);
    expect(created.json.cover).toBe(ids.asset);
  });
});

describe("media fields through the CLI", () => {
  const run = promisify(execFile);
  let dir: string;
  const ids = { asset: "", foreign: "" };
  const svc = (...args: string[]) =>
    run(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", ...args]).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-media-fields-"));
    const service = await createService({ dataDir: dir, logger: silentLogger() });
    try {
      const mine = await service.context.workspaces.create({ slug: "mine", hosts: ["mine.localhost"] });
      const other = await service.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
      await createCollection(service.context, mine.id, POSTS, OPERATOR);
      const media = service.context.db.media;
      ids.asset = (await media.create(mine.id, { filename: "a.txt", contentType: "text/plain", bytes: new TextEncoder().encode("a") })).id;
      ids.foreign = (await media.create(other.id, { filename: "b.txt", contentType: "text/plain", bytes: new TextEncoder().encode("b") })).id;
    } finally {
      await service.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(BAD)("svc entries create refuses %s: exit 1, one stderr line naming the field", async (_what, value, message) => {
    const res = await svc("entries", "create", "posts", "-w", "mine", "--values", JSON.stringify({ title: "x", cover: value(ids) }));
    expect(res.code).toBe(1);
    // With --json the one stderr line is the HTTP error body, the field named as over HTTP.
    const body = JSON.parse(res.stderr) as { error: string; field: string };
    expect(body.error).toMatch(message);
    expect(body.field).toBe("cover");
  });

  it("svc entries create accepts the workspace's own asset", async () => {
    const res = await svc("entries", "create", "posts", "-w", "mine", "--values", JSON.stringify({ title: "x", cover: ids.asset }));
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).cover).toBe(ids.asset);
  });
});
