/**
 * A refusal sent before the request body was read (413, 415, an early 401) says
 * `Connection: close`, and the server does close: a keep-alive client sends its next request on a
 * new socket and gets an answer instead of ECONNRESET. A request whose body was read keeps its
 * connection. Over the node handler (`createServer(svc.handler)`, as `svc serve` runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "node:http";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";

interface Answer {
  status: number;
  connection: string | undefined;
  reusedSocket: boolean;
  body: string;
}

const THREE_MB = Buffer.alloc(3 * 1024 * 1024, "a");

describe.each(drivers)("refused request bodies on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = await dashboardToken(t.svc.context, ws.id);
  });
  afterAll(() => t?.close());

  /** One request on `agent`; `chunked` sends the body without Content-Length. */
  const send = (agent: Agent, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer, chunked = false) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: t.port, path, method, agent, headers: { host: "demo.localhost", ...(body && !chunked && { "content-length": String(body.length) }), ...headers } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, reusedSocket: req.reusedSocket, body: text }));
        },
      );
      req.on("error", reject);
      if (body) req.write(body);
      req.end();
    });

  const auth = () => ({ authorization: `Bearer ${owner}` });
  const refusals: [string, (agent: Agent) => Promise<Answer>, number][] = [
    ["a 3 MB JSON body (Content-Length)", (a) => send(a, "POST", "/api/dashboard/collections", { ...auth(), "content-type": "application/json" }, THREE_MB), 413],
    ["a 3 MB JSON body (chunked)", (a) => send(a, "POST", "/api/dashboard/collections", { ...auth(), "content-type": "application/json" }, THREE_MB, true), 413],
    ["an upload without credentials", (a) => send(a, "POST", "/api/dashboard/media?filename=a.bin", { "content-type": "application/octet-stream" }, THREE_MB), 401],
    ["a site deploy of the wrong type", (a) => send(a, "POST", "/api/dashboard/site/deploys", { ...auth(), "content-type": "text/plain" }, THREE_MB), 415],
  ];

  it.each(refusals)("%s: the refusal says Connection: close and the next request on the same agent is answered", async (_, refuse, status) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await refuse(agent);
      expect(refused.status, refused.body).toBe(status);
      expect(refused.connection).toBe("close");
      const next = await send(agent, "GET", "/api/dashboard/collections", auth());
      expect(next.status, next.body).toBe(200);
      expect(next.reusedSocket).toBe(false);
    } finally {
      agent.destroy();
    }
  });

  it("a refusal after the body was read keeps the connection alive and reuses it", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(agent, "POST", "/api/dashboard/collections", { ...auth(), "content-type": "application/json" }, Buffer.from("{nope"));
      expect(refused.status).toBe(400);
      expect(refused.connection).toBe("keep-alive");
      const next = await send(agent, "GET", "/api/dashboard/collections", auth());
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
