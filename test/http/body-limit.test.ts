/**
 * The body limit is enforced while the body streams: a chunked body past the limit is refused
 * with 413 as soon as the limit is crossed, while the client is still sending, so the server
 * never waits for (or buffers) the rest.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const LIMIT = 64 * 1024;

describe.each(drivers)("streamed body limit on %s", (driver) => {
  let t: TestServer;
  let owner: string;

  beforeAll(async () => {
    t = await startTestServer(driver, { uploadLimit: LIMIT });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = (await createTestSession(t.svc.context, ws.id)).token;
  });
  afterAll(() => t?.close());

  it("reads a JSON body of declared length that arrives in pieces whole", async () => {
    const headers = { host: "demo.localhost", authorization: `Bearer ${owner}`, "content-type": "application/json" };
    // Split inside a two-byte character, with pauses, so the body spans several reads.
    const send = (path: string, json: Buffer, cuts: number[]) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port: t.port, path, method: "POST", headers: { ...headers, "content-length": json.length } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on("error", reject);
        (async () => {
          for (const [i, at] of [...cuts, json.length].entries()) {
            req.write(json.subarray(i === 0 ? 0 : cuts[i - 1], at));
            await new Promise((r) => setTimeout(r, 30));
          }
          req.end();
        })().catch(reject);
      });
    const made = await send("/api/dashboard/collections", Buffer.from(JSON.stringify({ name: "notes", fields: [{ name: "body", type: "text" }] })), [5]);
    expect(made.status, made.body).toBe(201);
    const { status, body } = await send("/api/dashboard/collections/notes/entries", Buffer.from(JSON.stringify({ body: "é".repeat(30_000) })), [7001, 20_001, 45_001]);
    expect(status, body).toBe(201);
    expect(JSON.parse(body).body).toBe("é".repeat(30_000));
  });

  it("answers 413 once the limit is crossed, before the client has finished sending", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port: t.port,
          path: "/api/dashboard/media?filename=big.bin",
          method: "POST",
          headers: { host: "demo.localhost", authorization: `Bearer ${owner}`, "content-type": "application/octet-stream" },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c));
          res.on("end", () => {
            req.destroy(); // the body was never ended: the answer cannot have waited for it
            resolve({ status: res.statusCode ?? 0, body: text });
          });
        },
      );
      req.on("error", (e) => ((e as NodeJS.ErrnoException).code === "EPIPE" || (e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e)));
      req.write(Buffer.alloc(LIMIT + 1024, 1)); // past the limit, and the request stays open
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error).toMatch(/limit/i);
    expect(Number((await t.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM media"))!.n)).toBe(0);
  });
});
