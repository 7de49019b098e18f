/**
 * A refusal sent before the request body was read (413, 415, an early 401) says
 * `Connection: close`, and the server does close: a keep-alive client sends its next request on a
 * new socket and gets an answer instead of ECONNRESET. A request whose body was read keeps its
 * connection. The refused socket closes lingering: a client still sending the body after the
 * refusal finishes sending and reads the refusal, instead of EPIPE or ECONNRESET. Over the node
 * handler (`createServer(svc.handler)`, as `svc serve` runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { drivers } from "../helpers/database.js";
import { LINGER_MS } from "../../src/http/linger.js";
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

  /**
   * Sends the head and 2 MB of a 3 MB body (chunked or with its length), waits for the whole
   * refusal (the server's FIN), then sends the rest: every write must succeed and the socket close
   * without an error.
   */
  const sendAfterRefusal = (path: string, headers: Record<string, string>, chunked: boolean) =>
    new Promise<{ head: string; error?: string }>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port: t.port, allowHalfOpen: true });
      const part = (n: number) => {
        const bytes = Buffer.alloc(n * 1024 * 1024, "a");
        return chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]) : bytes;
      };
      let answer = "";
      let error: string | undefined;
      const framing = chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(3 * 1024 * 1024) };
      const head = Object.entries({ host: "demo.localhost", ...framing, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`POST ${path} HTTP/1.1\r\n${head.join("")}\r\n`);
      socket.write(part(2));
      socket.setEncoding("latin1");
      socket.on("data", (c: string) => (answer += c));
      socket.on("error", (e) => (error = e.message));
      socket.on("close", () => resolve({ head: answer.split("\r\n\r\n")[0]!, error }));
      socket.once("end", () => socket.end(chunked ? Buffer.concat([part(1), Buffer.from("0\r\n\r\n")]) : part(1)));
    });

  const json = { "content-type": "application/json" };
  it.each([
    ["a 3 MB JSON body (Content-Length)", "/api/dashboard/collections", json, true, false, 413],
    ["a 3 MB JSON body (chunked)", "/api/dashboard/collections", json, true, true, 413],
    ["an upload without credentials", "/api/dashboard/media?filename=a.bin", { "content-type": "application/octet-stream" }, false, false, 401],
    ["a site deploy of the wrong type", "/api/dashboard/site/deploys", { "content-type": "text/plain" }, true, false, 415],
  ] as const)("%s: a client that goes on sending after the refusal reads it and sees no reset", async (_, path, headers, signedIn, chunked, status) => {
    const answer = await sendAfterRefusal(path, { ...(signedIn && auth()), ...headers }, chunked);
    expect(answer.head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(answer.head.toLowerCase()).toContain("connection: close");
    expect(answer.error).toBeUndefined();
  });

  it("a client that stops sending after the refusal is cut off after LINGER_MS, not before", async () => {
    const socket = connect({ host: "127.0.0.1", port: t.port, allowHalfOpen: true });
    socket.write(`POST /api/dashboard/collections HTTP/1.1\r\nhost: demo.localhost\r\ncontent-type: application/json\r\ncontent-length: ${3 * 1024 * 1024}\r\n\r\n`);
    socket.resume();
    await new Promise((resolve) => socket.once("end", resolve));
    const refused = Date.now();
    // The server's close is seen by writing: once it is gone, a write is answered by a reset.
    let gone = 0;
    socket.on("error", () => (gone ||= Date.now()));
    while (!gone && Date.now() - refused < LINGER_MS + 10_000) {
      socket.write("a");
      await new Promise((r) => setTimeout(r, 100));
    }
    socket.destroy();
    expect(gone, "the socket was never closed").toBeGreaterThan(0);
    expect(gone - refused).toBeGreaterThanOrEqual(LINGER_MS - 100);
  }, LINGER_MS + 15_000);

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
