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
