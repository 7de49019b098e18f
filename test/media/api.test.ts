/**
 * The media library over real HTTP (spec 1.3, 2.2, 4.1, 5.3): upload raw and multipart, list,
 * delete, public delivery with ETag / Range / HEAD / 304, no auth, no CORS, grants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { corsHeaders, headerEntries, multipart, pngHeader } from "./fixtures.js";

const RECORD_KEYS = ["content_type", "created_at", "filename", "id", "sha256", "size", "url"];

describe.each(drivers)("media API on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let wsId: string;
  const bytes = new TextEncoder().encode("0123456789abcdefghij");
  const upload = (body: Uint8Array | string, query: string, type = "text/plain", token = owner) =>
    t.request(`/api/dashboard/media${query}`, { method: "POST", body: body as BodyInit, token, headers: { "content-type": type } });
  const uploadText = async () => (await (await upload(bytes, "?filename=notes.txt")).json()) as { id: string; sha256: string };

  beforeAll(async () => {
    t = await startTestServer(driver);
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = await dashboardToken(t.svc.context, wsId, "owner");
  });
  afterAll(() => t?.close());

  it("uploads a raw body and delivers the same bytes with the stored type, ETag and caching headers", async () => {
    const res = await upload(bytes, "?filename=notes.txt", "text/plain; charset=UTF-8");
    expect(res.status).toBe(201);
    const record = await res.json();
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(record).toMatchObject({ filename: "notes.txt", content_type: "text/plain; charset=utf-8", size: 20, sha256: sha, url: `/api/v1/media/${record.id}` });
    const get = await t.request(record.url);
    expect(get.status).toBe(200);
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(bytes);
    expect(Object.fromEntries(headerEntries(get).filter(([k]) => k !== "date" && k !== "connection" && k !== "keep-alive"))).toEqual({
      "content-type": "text/plain; charset=utf-8",
      "content-length": "20",
      etag: `"${sha}"`,
      "last-modified": new Date(record.created_at).toUTCString(),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-disposition": `inline; filename="notes.txt"; filename*=UTF-8''notes.txt`,
      "accept-ranges": "bytes",
    });
  });

  it("uploads multipart/form-data field `file`, taking name and type from the part; width/height for images", async () => {
    const png = pngHeader(640, 480);
    const { body, type } = await multipart({ file: new File([png as Uint8Array<ArrayBuffer>], "photo.png", { type: "image/png" }), alt: "x" });
    const res = await upload(body, "", type);
    expect(res.status).toBe(201);
    const record = await res.json();
    expect(record).toMatchObject({ filename: "photo.png", content_type: "image/png", size: png.byteLength, width: 640, height: 480 });
    const meta = await (await t.request(`/api/v1/media/${record.id}/meta`)).json();
    expect(meta).toEqual({ id: record.id, filename: "photo.png", content_type: "image/png", size: png.byteLength, created_at: record.created_at, width: 640, height: 480 });
    expect(new Uint8Array(await (await t.request(record.url)).arrayBuffer())).toEqual(png);
  });

  it.each([
    ["multipart without a file field", async () => multipart({ other: "x" }), 400, /field named "file"/],
    ["raw body without ?filename=", async () => ({ body: bytes, type: "text/plain" }), 400, /filename/],
    ["an empty raw body", async () => ({ body: new Uint8Array(0), type: "text/plain", query: "?filename=a.txt" }), 400, /empty/],
  ])("refuses %s", async (_name, make, status, message) => {
    const m = (await make()) as { body: Uint8Array; type: string; query?: string };
    const res = await upload(m.body, m.query ?? "", m.type);
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
  });

  it("meta has exactly {id, filename, content_type, size, created_at} without dimensions", async () => {
    const { id } = await uploadText();
    const meta = await (await t.request(`/api/v1/media/${id}/meta`)).json();
    expect(Object.keys(meta).sort()).toEqual(["content_type", "created_at", "filename", "id", "size"]);
  });

  it.each([
    ["bytes=2-5", 206, "2345", "bytes 2-5/20"],
    ["bytes=15-", 206, "fghij", "bytes 15-19/20"],
    ["bytes=-3", 206, "hij", "bytes 17-19/20"],
    ["bytes=18-100", 206, "ij", "bytes 18-19/20"],
    ["bytes=0-1,4-5", 200, "0123456789abcdefghij", undefined],
    ["items=0-1", 200, "0123456789abcdefghij", undefined],
  ])("Range %s → %i with the right bytes", async (range, status, body, contentRange) => {
    const { id } = await uploadText();
    const res = await t.request(`/api/v1/media/${id}`, { headers: { range } });
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(body);
    expect(res.headers.get("content-range") ?? undefined).toBe(contentRange);
    expect(res.headers.get("content-length")).toBe(String(body.length));
  });

  it("answers 416 with Content-Range */size for an unsatisfiable range, and ignores Range when If-Range differs", async () => {
    const { id, sha256 } = await uploadText();
    const res = await t.request(`/api/v1/media/${id}`, { headers: { range: "bytes=20-" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */20");
    expect(await res.json()).toMatchObject({ error: "Range not satisfiable" });
    const stale = await t.request(`/api/v1/media/${id}`, { headers: { range: "bytes=0-1", "if-range": '"other"' } });
    expect([stale.status, (await stale.text()).length]).toEqual([200, 20]);
    const fresh = await t.request(`/api/v1/media/${id}`, { headers: { range: "bytes=0-1", "if-range": `"${sha256}"` } });
    expect([fresh.status, await fresh.text()]).toEqual([206, "01"]);
  });

  it("answers 304 to a matching If-None-Match (also weak and in a list), 200 otherwise", async () => {
    const { id, sha256 } = await uploadText();
    for (const inm of [`"${sha256}"`, `W/"${sha256}"`, `"x", "${sha256}"`, "*"]) {
      const res = await t.request(`/api/v1/media/${id}`, { headers: { "if-none-match": inm } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(`"${sha256}"`);
      expect(await res.text()).toBe("");
    }
    expect((await t.request(`/api/v1/media/${id}`, { headers: { "if-none-match": '"nope"' } })).status).toBe(200);
  });

  it("HEAD gives the headers and no body; a ranged HEAD gives 206", async () => {
    const { id } = await uploadText();
    const head = await t.request(`/api/v1/media/${id}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("20");
    expect(head.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(await head.text()).toBe("");
    const ranged = await t.request(`/api/v1/media/${id}`, { method: "HEAD", headers: { range: "bytes=0-3" } });
    expect([ranged.status, ranged.headers.get("content-range")]).toEqual([206, "bytes 0-3/20"]);
  });

  it("needs no credential and ignores any sent, valid or not (spec 4.1, 5.3)", async () => {
    const { id } = await uploadText();
    const key = await apiKey(t.svc.context, wsId, []);
    for (const authorization of [undefined, `Bearer ${key}`, "Bearer pk_" + "0".repeat(64), "Bearer garbage", "Basic Zm9vOmJhcg=="]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      expect((await t.request(`/api/v1/media/${id}`, { headers })).status).toBe(200);
      expect((await t.request(`/api/v1/media/${id}/meta`, { headers })).status).toBe(200);
    }
  });

  it("sends no CORS headers on GET, HEAD, meta or OPTIONS (spec 1.3)", async () => {
    const { id } = await uploadText();
    const origin = { origin: "https://elsewhere.example", "access-control-request-method": "GET" };
    for (const [path, method] of [[`/api/v1/media/${id}`, "GET"], [`/api/v1/media/${id}`, "HEAD"], [`/api/v1/media/${id}/meta`, "GET"], [`/api/v1/media/${id}`, "OPTIONS"], [`/api/v1/media/${id}/meta`, "OPTIONS"]]) {
      const res = await t.request(path!, { method, headers: origin });
      expect([method, path, corsHeaders(res)]).toEqual([method, path, []]);
      if (method === "OPTIONS") expect(res.status).toBeGreaterThanOrEqual(400);
    }
  });

  it("deletes: 204, then 404 for bytes, meta and a second delete", async () => {
    const { id } = await uploadText();
    const del = await t.request(`/api/dashboard/media/${id}`, { method: "DELETE", token: owner });
    expect(del.status).toBe(204);
    expect((await t.request(`/api/v1/media/${id}`)).status).toBe(404);
    expect((await t.request(`/api/v1/media/${id}/meta`)).status).toBe(404);
    expect((await t.request(`/api/dashboard/media/${id}`, { method: "DELETE", token: owner })).status).toBe(404);
    expect(await t.svc.context.blobs.getItemRaw(`media/${wsId}/${id}`)).toBeNull();
  });

  it("scopes assets to their workspace: another host answers 404", async () => {
    const { id } = await uploadText();
    const res = await t.request(`/api/v1/media/${id}`, { host: "other.localhost" });
    expect(res.status).toBe(404);
    expect((await t.request(`/api/v1/media/not-a-uuid`)).status).toBe(404);
  });
});
