/**
 * multipart/form-data on the two routes that take it (media upload, form submit), read the same
 * way: counted against the upload limit as the bytes stream in (413 past it, with or without a
 * Content-Length), parsed by the platform's FormData, 400 when malformed, and accepted when sent
 * chunked without a Content-Length.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const LIMIT = 4096;

/** A multipart body as a browser builds it: bytes plus the Content-Type with its boundary. */
async function multipart(fields: Record<string, string | File>): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("content-type")! };
}

/** Sends `body` in small chunks without a Content-Length; resolves with the status and body. */
function sendChunked(t: TestServer, path: string, headers: Record<string, string>, body: Uint8Array): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: t.port, path, method: "POST", headers: { host: "demo.localhost", ...headers } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", (e) => ((e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e)));
    for (let at = 0; at < body.length; at += 512) req.write(body.subarray(at, at + 512));
    req.end();
  });
}

describe.each(drivers)("multipart bodies on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let n = 0;
  const routes = (): { name: string; path: string; headers: Record<string, string>; fields: (file: File) => Record<string, string | File> }[] => [
    { name: "media upload", path: "/api/dashboard/media", headers: { authorization: `Bearer ${owner}` }, fields: (file: File) => ({ file }) },
    { name: "form submit", path: "/api/v1/forms/upload/submit", headers: { "x-forwarded-for": `198.51.100.${++n}` }, fields: (file: File) => ({ note: "hi", cv: file }) },
  ];

  beforeAll(async () => {
    t = await startTestServer(driver, { uploadLimit: LIMIT, trustProxy: true });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = (await createTestSession(t.svc.context, ws.id)).token;
    const form = { slug: "upload", name: "Upload", fields: [{ name: "note", type: "text" }, { name: "cv", type: "file" }] };
    expect((await t.request("/api/dashboard/forms", { method: "POST", token: owner, json: form })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("accepts a multipart body sent chunked, without a Content-Length, on both routes", async () => {
    for (const route of routes()) {
      const { body, type } = await multipart(route.fields(new File(["hello"], "a.txt", { type: "text/plain" })));
      const res = await sendChunked(t, route.path, { ...route.headers, "content-type": type }, body);
      expect([route.name, res.status]).toEqual([route.name, 201]);
    }
  });

  it("refuses a multipart body past the upload limit with 413, declared or streamed, on both routes", async () => {
    for (const route of routes()) {
      const { body, type } = await multipart(route.fields(new File([new Uint8Array(LIMIT + 1)], "big.bin")));
      const streamed = await sendChunked(t, route.path, { ...route.headers, "content-type": type }, body);
      expect([route.name, streamed.status]).toEqual([route.name, 413]);
      const declared = await t.request(route.path, { method: "POST", body: body as Uint8Array<ArrayBuffer>, headers: { ...route.headers, "content-type": type } });
      expect([route.name, declared.status]).toEqual([route.name, 413]);
      expect((await declared.json()).error).toMatch(/limit/i);
    }
  });

  it("refuses a malformed multipart body with 400 naming the problem, on both routes", async () => {
    for (const route of routes()) {
      const res = await t.request(route.path, { method: "POST", body: "--nope\r\nnot a part", headers: { ...route.headers, "content-type": "multipart/form-data; boundary=other" } });
      expect([route.name, res.status, (await res.json()).error]).toEqual([route.name, 400, "Malformed multipart/form-data body"]);
    }
  });
});
