/**
 * Misbehaving receivers cannot stall or leak the service: its own dispatcher against real local
 * receivers that misbehave — reset mid-response, an untrusted certificate, DNS failure, bytes
 * trickled past the deadline, a 10 MB body, silence. Each ends as spec 6.6 says (2xx delivered;
 * otherwise up to 3 attempts, then dropped and logged), the service keeps answering HTTP meanwhile,
 * and after close() no socket is left behind. (Refused connections, plain hangs and a missing CA:
 * test/webhooks/*.)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario } from "../helpers/scenario.js";
import { CA, captureLogger, contentEvent, sleep, startReceiver, target } from "../webhooks/helpers.js";
import type { DeliveryResult } from "../../src/webhooks/index.js";

const TIMEOUT_MS = 400;
const RETRIES = [50, 100];

/** Network handles open now: sockets, servers, DNS requests (vitest's own pipes and timers excluded). */
const handles = () => process.getActiveResourcesInfo().filter((r) => /TCP|TLS|GetAddrInfo|Connect/.test(r)).sort();

let dir: string;
let untrusted: { key: string; cert: string };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-untrusted-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  untrusted = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one delivery through a fresh service's dispatcher while a client keeps reading over HTTP. */
async function underFault(url: string, lookup?: (host: string) => Promise<never>) {
  const baseline = handles();
  const logger = captureLogger();
  const s = await scenario("sqlite", {
    allowPrivateWebhookTargets: true,
    webhooks: { ca: CA, timeoutMs: TIMEOUT_MS, retryDelaysMs: RETRIES, logger, ...(lookup && { lookup }) },
  });
  await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
  let served = 0;
  let failures = 0;
  let done = false;
  const reader = (async () => {
    while (!done) {
      const res = await s.get("/api/v1/nothing-here");
      if (res.status === 404) served++;
      else failures++;
    }
  })();
  const memBefore = process.memoryUsage();
  let result: DeliveryResult;
  try {
    result = await s.svc.context.webhooks.deliverNow(target(url, { secret: "whsec_fault_secret" }), contentEvent("content.created"), { retries: true });
  } finally {
    done = true;
    await reader;
    await s.close();
  }
  const memAfter = process.memoryUsage();
  // A leak is a handle beyond the baseline (one lingering from an earlier test may close meanwhile).
  const excess = () => {
    const left = [...baseline];
    return handles().filter((h) => {
      const i = left.indexOf(h);
      return i === -1 ? true : (left.splice(i, 1), false);
    });
  };
  for (let i = 0; i < 100 && excess().length > 0; i++) await sleep(20);
  return { result: result!, logger, served, failures, leaked: excess(), memBefore, memAfter };
}

function expectDropped(run: Awaited<ReturnType<typeof underFault>>, error: RegExp) {
  expect(run.result).toMatchObject({ ok: false, attempts: 3 });
  expect(run.result.error).toMatch(error);
  expect(run.logger.lines.filter((l) => l.includes("retrying"))).toHaveLength(2);
  expect(run.logger.lines.some((l) => l.startsWith("warn") && l.includes("dropped after 3 attempts"))).toBe(true);
  expect(run.logger.text()).not.toContain("whsec_fault_secret");
}

function expectHealthy(run: Awaited<ReturnType<typeof underFault>>) {
  expect(run.failures).toBe(0);
  expect(run.served).toBeGreaterThan(0);
  expect(run.leaked).toEqual([]);
}

describe("dispatcher faults against real receivers (spec 6.6)", () => {
  it("200 then a reset mid-body: delivered (the body is ignored)", async () => {
    const r = await startReceiver((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("partial");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const run = await underFault(r.url());
    await r.close();
    expect(run.result).toMatchObject({ ok: true, status: 200, attempts: 1 });
    expectHealthy(run);
  });

  it("a reset in the middle of the status line: retried, then dropped and logged", async () => {
    const r = await startReceiver((req) => {
      req.socket.write("HTTP/1.1 200 O");
      setTimeout(() => req.socket.destroy(), 20);
    });
    const run = await underFault(r.url());
    await r.close();
    expectDropped(run, /socket hang up|ECONNRESET|Parse Error/i);
    expect(r.requests).toHaveLength(3);
    expectHealthy(run);
  });

  it("a certificate not signed by a trusted CA: retried, then dropped; the receiver never sees a request", async () => {
    let requests = 0;
    const server = createHttpsServer(untrusted, (_req, res) => (requests++, res.end("ok")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const run = await underFault(`https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expectDropped(run, /certificate/i);
    expect(requests).toBe(0);
    expectHealthy(run);
  });

  it("DNS failure (ENOTFOUND): retried, then dropped", async () => {
    const lookup = async (host: string): Promise<never> => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND", hostname: host });
    };
    const run = await underFault("https://hooks.invalid/x", lookup);
    expectDropped(run, /ENOTFOUND/);
    expectHealthy(run);
  });

  it("headers trickled one byte at a time: the deadline cuts each attempt, then dropped", async () => {
    const timers = new Set<ReturnType<typeof setInterval>>();
    const r = await startReceiver((req) => {
      const bytes = Buffer.from("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Slow: " + "a".repeat(200) + "\r\n\r\nok");
      let i = 0;
      const timer = setInterval(() => {
        if (req.socket.destroyed || i >= bytes.length) return clearInterval(timer);
        req.socket.write(bytes.subarray(i, ++i));
      }, 20);
      timers.add(timer);
    });
    const run = await underFault(r.url());
    for (const timer of timers) clearInterval(timer);
    await r.close();
    expectDropped(run, new RegExp(`timed out after ${TIMEOUT_MS} ms`));
    expect(run.result.durationMs).toBeLessThan(3 * TIMEOUT_MS + 150 + 1000);
    expectHealthy(run);
  });

  it("a 10 MB response body: delivered at once, never buffered (memory flat)", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 0x61);
    let sent = 0;
    const r = await startReceiver((_req, res) => {
      res.writeHead(200, { "content-length": String(big.length) });
      res.end(big);
      res.socket?.once("close", () => (sent += res.socket?.bytesWritten ?? 0));
    });
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await underFault(r.url()));
    await r.close();
    for (const run of runs) {
      expect(run.result).toMatchObject({ ok: true, status: 200, attempts: 1 });
      expect(run.result.durationMs).toBeLessThan(2000);
      expectHealthy(run);
    }
    // Buffering 3 × 10 MB would show; draining stops at 64 KiB and closes the socket.
    const grown = runs.at(-1)!.memAfter.arrayBuffers - runs[0]!.memBefore.arrayBuffers;
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });

  it("a receiver that accepts and never answers: each attempt times out, then dropped", async () => {
    const r = await startReceiver(() => {});
    const run = await underFault(r.url());
    await r.close();
    expectDropped(run, new RegExp(`timed out after ${TIMEOUT_MS} ms`));
    expect(r.requests).toHaveLength(3);
    expectHealthy(run);
  });
});
