/**
 * A real service over real HTTP on a random loopback port, with its own database.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createConsola } from "consola";
import { createService, type Service, type ServiceOptions } from "../../src/service.js";
import { createTestDatabase, type DriverName, type TestDatabase } from "./database.js";

export interface TestServer {
  svc: Service;
  db: TestDatabase;
  base: string;
  port: number;
  /** fetch with a Host header (default demo.localhost). */
  request(path: string, init?: RequestInit & { host?: string; token?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export const silentLogger = () => createConsola({ level: -999 });

/** A mail transport that accepts and drops every message: for suites that sign up without reading the mail. */
export const dropMail = (): void => {};

export async function startTestServer(driver: DriverName = "sqlite", options: ServiceOptions = {}): Promise<TestServer> {
  const db = await createTestDatabase(driver);
  const svc = await createService({
    dataDir: db.dataDir,
    database: db.url,
    blobs: "memory:",
    secretKey: Buffer.alloc(32, 7).toString("base64"),
    logger: silentLogger(),
    // Suites create many users; OWASP-cost hashing is tested where it matters (passwords, rehash).
    insecureFastPasswordHashing: true,
    ...options,
  });
  const server: Server = createServer(svc.handler);
  // Some suites block this process for seconds (synchronous tsc compiles): an idle keep-alive
  // socket must not expire during the block, or the client's next request races its close.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    svc,
    db,
    base,
    port,
    request: (path, init = {}) => requestAt(base, path, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
      await db.cleanup();
    },
  };
}

/** A service of the caller's (e.g. a second instance on one database) served over real HTTP. */
export interface ServedService {
  svc: Service;
  request(path: string, init?: RequestInit2): Promise<Response>;
  /** Stops the server and closes the service. */
  close(): Promise<void>;
}

export async function serveService(svc: Service): Promise<ServedService> {
  const server: Server = createServer(svc.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    svc,
    request: (path, init) => requestAt(base, path, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
    },
  };
}

export type RequestInit2 = RequestInit & { host?: string; token?: string; json?: unknown; localAddress?: string };

/**
 * A request to `base` + `path` with a Host header (default demo.localhost), a bearer token and a
 * JSON body; `localAddress` (e.g. 127.0.0.2) sends it from another loopback address.
 */
export function requestAt(base: string, path: string, init: RequestInit2 = {}): Promise<Response> {
  const { host = "demo.localhost", token, json, headers, ...rest } = init;
  const h = new Headers(headers);
  h.set("host", host);
  if (token) h.set("authorization", `Bearer ${token}`);
  let body = rest.body;
  if (json !== undefined) {
    h.set("content-type", "application/json");
    body = JSON.stringify(json);
  }
  return fetchWithHost(`${base}${path}`, { ...rest, headers: h, body });
}

/**
 * Node's fetch (undici) refuses to override Host; node:http does not. Same signature as fetch.
 */
import { request as httpRequest } from "node:http";
export function fetchWithHost(url: string, init: RequestInit & { headers: Headers; localAddress?: string }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const headers: Record<string, string> = {};
    init.headers.forEach((v, k) => (headers[k] = v));
    const req = httpRequest(
      { host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port: u.port, path: u.pathname + u.search, method: init.method ?? "GET", headers, setHost: false, localAddress: init.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
          const status = res.statusCode ?? 0;
          const noBody = status === 204 || status === 304 || init.method === "HEAD";
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: h }));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    const body = init.body;
    if (body === undefined || body === null) req.end();
    else if (typeof body === "string" || body instanceof Uint8Array) req.end(body);
    else if (body instanceof ArrayBuffer) req.end(Buffer.from(body));
    else reject(new Error("fetchWithHost: unsupported body type in tests"));
  });
}
