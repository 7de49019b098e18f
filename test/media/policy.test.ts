/**
 * Media policy over real HTTP: grants (spec 5.4), the upload limit (413, counted on the stream),
 * filename sanitising, active content types, listing, and route precedence over
 * `/api/v1/:collection/:id`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import type { TestServer } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { createHttpApp } from "../../src/http/app.js";
import { allRoutes } from "../../src/http/routes/index.js";
import { multipart } from "./fixtures.js";

const LIMIT = 1024;

/** A chunked upload with no Content-Length: the server must count the stream itself. */
function chunkedUpload(t: TestServer, token: string, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: t.port, path: "/api/dashboard/media?filename=big.bin", method: "POST", headers: { host: "demo.localhost", authorization: `Bearer ${token}`, "content-type": "application/octet-stream" } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", (e) => ((e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e)));
    for (let sent = 0; sent < total; sent += 256) req.write(Buffer.alloc(256, 1));
    req.end();
  });
}

describe.each(drivers)("media policy on %s", (driver) => {
  let s: ServerScenario;
  let wsId: string;
  let owner: string;
  /** An upload of raw bytes as `token`. */
  const upload = (token: string, body: Uint8Array | string = "hello", query = "?filename=a.txt", type = "text/plain") =>
    s.as(token).post(`/api/dashboard/media${query}`, undefined, { body: body as BodyInit, headers: { "content-type": type } });

  beforeAll(async () => {
    s = await scenario(driver, { uploadLimit: LIMIT });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(s.svc.context, wsId, "owner");
  });
  afterAll(() => s?.close());

  it.each<[string, string[], "GET" | "POST" | "DELETE", number, string | undefined]>([
    ["no grants cannot list", [], "GET", 403, "media:read"],
    ["media:read lists", ["media:read"], "GET", 200, undefined],
    ["media:write lists (write implies read)", ["media:write"], "GET", 200, undefined],
    ["media:read cannot upload", ["media:read"], "POST", 403, "media:write"],
    ["media:write uploads", ["media:write"], "POST", 201, undefined],
    ["entries:write cannot upload", ["entries:write"], "POST", 403, "media:write"],
    ["media:read cannot delete", ["media:read"], "DELETE", 403, "media:write"],
  ])("key: %s", async (_name, grants, method, status, missing) => {
    const key = await apiKey(s.svc.context, wsId, grants);
    const { id } = (await upload(owner)).expectStatus(201).body;
    const res = method === "GET" ? await s.as(key).get("/api/dashboard/media") : method === "POST" ? await upload(key) : await s.as(key).delete(`/api/dashboard/media/${id}`);
    res.expectStatus(status);
    if (missing) expect(res.body).toEqual({ error: `Missing grant: ${missing}`, grant: missing });
  });

  it("checks members like keys, lets owners bypass, and answers 401 without a credential", async () => {
    const reader = await dashboardToken(s.svc.context, wsId, "member", ["media:read"]);
    (await s.as(reader).get("/api/dashboard/media")).expectStatus(200);
    (await upload(reader)).expectStatus(403);
    (await upload(owner)).expectStatus(201);
    expect(await s.get("/api/dashboard/media")).toEqual({ status: 401, body: { error: "Unauthorized" } });
  });

  it("refuses a body over the upload limit with 413: declared, streamed without a length, and multipart", async () => {
    const over = new Uint8Array(LIMIT + 1);
    (await upload(owner, over)).expectStatus(413).expectBody({ limit: LIMIT });
    (await upload(owner, new Uint8Array(LIMIT))).expectStatus(201);
    expect(await chunkedUpload(s.t, owner, LIMIT * 4)).toBe(413);
    const { body, type } = await multipart({ file: new File([new Uint8Array(LIMIT + 1)], "x.bin") });
    (await upload(owner, body, "", type)).expectStatus(413);
  });

  it.each([
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\me\\evil.exe", "evil.exe"],
    ["in\u0000va\u0007lid\r\n.txt", "invalid.txt"],
    ["report\u202Efdp.exe", "reportfdp.exe"],
    ["..", "file"],
    ["  spaced.txt  ", "spaced.txt"],
    [`${"a".repeat(300)}.jpeg`, `${"a".repeat(195)}.jpeg`],
  ])("sanitises the filename %j → %j", async (raw, expected) => {
    const record = (await upload(owner, "x", `?filename=${encodeURIComponent(raw)}`)).expectStatus(201).body;
    expect(record.filename).toBe(expected);
    const get = await s.get(record.url);
    expect(get.headers.get("content-disposition")).toContain(`filename*=UTF-8''${encodeURIComponent(expected)}`);
  });

  it("writes a safe ASCII fallback and the exact UTF-8 name in Content-Disposition", async () => {
    const { url } = (await upload(owner, "x", `?filename=${encodeURIComponent('ré"sumé.txt')}`)).expectStatus(201).body;
    expect((await s.get(url)).headers.get("content-disposition")).toBe(`inline; filename="r__sum_.txt"; filename*=UTF-8''r%C3%A9%22sum%C3%A9.txt`);
  });

  it.each([
    ["text/html", "page.html"],
    ["image/svg+xml", "logo.svg"],
    ["application/xhtml+xml", "a.xhtml"],
    ["text/xml", "a.xml"],
    ["application/javascript", "a.js"],
  ])("serves active type %s as an attachment under a sandbox CSP, type kept, nosniff", async (type, name) => {
    const { url } = (await upload(owner, "<script>alert(1)</script>", `?filename=${name}`, type)).expectStatus(201).body;
    const res = await s.get(url);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("never trusts a malformed type; falls back to the extension, then octet-stream", async () => {
    (await upload(owner, "x", "?filename=pic.png", "not a type")).expectStatus(201).expectBody({ content_type: "image/png" });
    (await upload(owner, "x", "?filename=blob", "application/octet-stream")).expectStatus(201).expectBody({ content_type: "application/octet-stream" });
  });

  it("lists newest first with {data, meta: {total, limit, offset}} and validates paging", async () => {
    const all = (await s.as(owner).get("/api/dashboard/media?limit=100")).expectStatus(200).body;
    const page = (await s.as(owner).get("/api/dashboard/media?limit=2&offset=1")).expectStatus(200).body;
    expect(page.meta).toEqual({ total: all.meta.total, limit: 2, offset: 1 });
    expect(page.data).toEqual(all.data.slice(1, 3));
    const times = all.data.map((m: { created_at: string }) => m.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      (await s.as(owner).get(`/api/dashboard/media?${q}`)).expectStatus(400);
    }
  });

  it("media routes win over /api/v1/:collection/:id whatever the registration order (rou3 prefers static segments)", async () => {
    expect(allRoutes.some((r) => r.method === "GET" && r.path === "/api/v1/:collection/:id")).toBe(true);
    const { id } = (await upload(owner, "precedence")).expectStatus(201).body;
    for (const routes of [allRoutes, [...allRoutes].reverse()]) {
      const app = createHttpApp(s.svc.context, routes);
      const res = await app.fetch(new Request(`http://demo.localhost/api/v1/media/${id}`));
      expect([res.status, await res.text()]).toEqual([200, "precedence"]);
      const meta = await app.fetch(new Request(`http://demo.localhost/api/v1/media/${id}/meta`));
      expect((await meta.json()).id).toBe(id);
    }
  });
});
