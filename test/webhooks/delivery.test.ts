import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { signBody } from "../../src/webhooks/index.js";
import { DEFAULTS } from "../../src/webhooks/options.js";
import { SECRET, closedPort, contentEvent, formEvent, sourceOf, target, dispatcherRig } from "./helpers.js";

const { receiver, dispatcher } = dispatcherRig({ allowPrivateTargets: true });

/** spec 6.4.3: verify against the raw bytes as received, constant-time and length-checked. */
function verify(raw: Buffer, header: string | string[] | undefined, secret = SECRET): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`);
  const got = Buffer.from(String(header));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

describe("delivery format (spec 6.1, 6.3, 6.4, 6.5)", () => {
  it("POSTs exactly {event, data, timestamp} as JSON, signed over the raw bytes", async () => {
    const r = await receiver();
    const d = dispatcher({ source: sourceOf(target(r.url())) });
    const event = contentEvent("content.created");
    const before = Date.now();
    d.emit(event);
    const [req] = await r.waitFor(1);
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/hook");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["content-length"]).toBe(String(req.raw.length));
    expect(req.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(req.raw, req.headers["x-service-signature"])).toBe(true);
    expect(verify(req.raw, req.headers["x-service-signature"], "other-secret")).toBe(false);
    const body = JSON.parse(req.raw.toString("utf8"));
    expect(Object.keys(body)).toEqual(["event", "data", "timestamp"]);
    expect(body.event).toBe("content.created");
    expect(body.data).toEqual(event.data);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it("form.submitted carries form, formId and submission", async () => {
    const r = await receiver();
    const d = dispatcher({ source: sourceOf(target(r.url())) });
    d.emit(formEvent());
    const [req] = await r.waitFor(1);
    const body = JSON.parse(req.raw.toString());
    expect(body.event).toBe("form.submitted");
    expect(body.data).toEqual(formEvent().data);
    expect(verify(req.raw, req.headers["x-service-signature"])).toBe(true);
  });

  it("format code_host_repository_dispatch reshapes the body and still signs it", async () => {
    const r = await receiver();
    const d = dispatcher({ source: sourceOf(target(r.url(), { format: "code_host_repository_dispatch" })) });
    const event = contentEvent("content.published");
    d.emit(event);
    const [req] = await r.waitFor(1);
    const body = JSON.parse(req.raw.toString());
    expect(body).toEqual({
      event_type: "service.content.published",
      client_payload: { event: "content.published", collection: "posts", entryId: event.data.entry.id, timestamp: body.client_payload.timestamp },
    });
    expect(Number.isNaN(Date.parse(body.client_payload.timestamp))).toBe(false);
    expect(verify(req.raw, req.headers["x-service-signature"])).toBe(true);
  });

  it("sends custom headers, which cannot override the dispatcher's own", async () => {
    const r = await receiver();
    const headers = {
      "X-Api-Key": "key-value-1",
      Authorization: "Bearer tok",
      "content-type": "text/plain",
      "X-SERVICE-SIGNATURE": "sha256=forged",
      "Content-Length": "1",
      Connection: "close",
      // Header names are data: these are headers, not Object.prototype's (JSON.parse keeps __proto__ an own key).
      ...(JSON.parse('{"__proto__":"proto-value","constructor":"constructor-value"}') as Record<string, string>),
    };
    const d = dispatcher({ source: sourceOf(target(r.url(), { headers })) });
    d.emit(contentEvent("content.deleted"));
    const [req] = await r.waitFor(1);
    const sent = req.rawHeaders.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${req.rawHeaders[i + 1]}`] : []));
    expect(sent).toEqual(expect.arrayContaining(["__proto__: proto-value", "constructor: constructor-value"]));
    expect(req.headers["x-api-key"]).toBe("key-value-1");
    expect(req.headers.authorization).toBe("Bearer tok");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["content-length"]).toBe(String(req.raw.length));
    expect(req.headers.connection).not.toBe("close");
    expect(verify(req.raw, req.headers["x-service-signature"])).toBe(true);
  });

  it("deliverNow reports status, attempts, duration and the signature of the bytes sent", async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    const d = dispatcher({ source: sourceOf() });
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"));
    const [req] = await r.waitFor(1);
    expect(result).toMatchObject({ ok: true, status: 204, attempts: 1 });
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.signature).toBe(req.headers["x-service-signature"]);
    expect(result.signature).toBe(signBody(SECRET, req.raw));
  });
});

describe("delivery behaviour (spec 6.6)", () => {
  it("500, 500, 500: three attempts 1 s then 2 s apart, then dropped and logged without secrets", async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end("no"));
    const t = target(r.url(), { headers: { "X-Token": "header-value-secret" } });
    const d = dispatcher({ source: sourceOf(t) });
    d.emit(contentEvent("content.created"));
    const reqs = await r.waitFor(3, 6000);
    const gap1 = reqs[1].at - reqs[0].at;
    const gap2 = reqs[2].at - reqs[1].at;
    expect(gap1).toBeGreaterThanOrEqual(950);
    expect(gap1).toBeLessThan(1400);
    expect(gap2).toBeGreaterThanOrEqual(1950);
    expect(gap2).toBeLessThan(2400);
    await vi.waitFor(() => expect(d.stats().failed).toBe(1), { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(3);
    expect(d.stats()).toMatchObject({ failed: 1, delivered: 0, pending: 0, inFlight: 0 });
    // spec 6.6: each retry carries its own send time, so the body and signature differ per attempt.
    const stamps = reqs.map((q) => JSON.parse(q.raw.toString()).timestamp);
    expect(new Set(stamps).size).toBe(3);
    for (const q of reqs) expect(verify(q.raw, q.headers["x-service-signature"])).toBe(true);
    const drop = d.logger.lines.find((l) => l.startsWith("warn") && l.includes("dropped"));
    expect(drop).toBeDefined();
    expect(drop).toContain('"webhook":"wh-1"');
    expect(drop).toContain('"event":"content.created"');
    expect(drop).toContain('"attempts":3');
    expect(drop).toContain('"status":500');
    expect(d.logger.text()).not.toContain(SECRET);
    expect(d.logger.text()).not.toContain("header-value-secret");
  });

  it("500 then 200: two attempts, delivered", async () => {
    let n = 0;
    const r = await receiver((_req, res) => res.writeHead(++n === 1 ? 500 : 200).end());
    const d = dispatcher({ source: sourceOf(), retryDelaysMs: [100, 200] });
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"), { retries: true });
    expect(result).toMatchObject({ ok: true, status: 200, attempts: 2 });
    expect(r.requests).toHaveLength(2);
    expect(d.stats()).toMatchObject({ delivered: 1, failed: 0 });
  });

  it.each([301, 302])("%i is a failure and is not followed", async (status) => {
    const elsewhere = await receiver();
    const r = await receiver((_req, res) => res.writeHead(status, { location: elsewhere.url("/moved") }).end());
    const d = dispatcher({ source: sourceOf(), retryDelaysMs: [20, 20] });
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"), { retries: true });
    expect(result).toMatchObject({ ok: false, status, attempts: 3 });
    expect(result.error).toContain("redirects are not followed");
    expect(r.requests).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("abandons a hanging receiver at the timeout; the default timeout is 10 s", async () => {
    expect(DEFAULTS.timeoutMs).toBe(10_000);
    expect(DEFAULTS.retryDelaysMs).toEqual([1000, 2000]);
    const r = await receiver(() => {}); // never answers
    const d = dispatcher({ source: sourceOf(), timeoutMs: 300 });
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"));
    expect(result).toMatchObject({ ok: false, status: null, attempts: 1, error: "timed out after 300 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1000);
    expect(r.requests).toHaveLength(1);
  });

  it("does not wait for (or buffer) a response body", async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(Buffer.alloc(256 * 1024)); // more than the drain cap, and never ended
    });
    const d = dispatcher({ source: sourceOf(), timeoutMs: 2000 });
    const result = await d.deliverNow(target(r.url()), contentEvent("content.created"));
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("connection refused: retried, then dropped", async () => {
    const port = await closedPort();
    const d = dispatcher({ source: sourceOf(), retryDelaysMs: [50, 100] });
    const result = await d.deliverNow(target(`https://127.0.0.1:${port}/hook`), contentEvent("content.created"), { retries: true });
    expect(result).toMatchObject({ ok: false, status: null, attempts: 3 });
    expect(result.error).toContain("ECONNREFUSED");
    expect(d.logger.lines.filter((l) => l.includes("retrying"))).toHaveLength(2);
    expect(d.logger.lines.some((l) => l.startsWith("warn") && l.includes("dropped after 3 attempts"))).toBe(true);
  });

  it("deliveries are concurrent: a slow receiver does not hold up another host", async () => {
    let active = 0;
    let peak = 0;
    const slow = await receiver((_req, res) => {
      peak = Math.max(peak, ++active);
      setTimeout(() => (active--, res.end()), 300);
    });
    const fast = await receiver();
    const d = dispatcher({ source: sourceOf(), maxPerHost: 2, maxConcurrency: 4 });
    const slowDone = Promise.all(Array.from({ length: 6 }, () => d.deliverNow(target(slow.url()), contentEvent("content.created"))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t0 = Date.now();
    const fastResults = await Promise.all(Array.from({ length: 4 }, () => d.deliverNow(target(fast.url()), contentEvent("content.created"))));
    expect(Date.now() - t0).toBeLessThan(250);
    expect(fastResults.every((x) => x.ok)).toBe(true);
    expect((await slowDone).every((x) => x.ok)).toBe(true);
    expect(peak).toBe(2);
  });

  it("hands a host as many attempts again to wait in its connection pool, never more on the wire than maxPerHost", async () => {
    let active = 0;
    let peak = 0;
    const slow = await receiver((_req, res) => {
      peak = Math.max(peak, ++active);
      setTimeout(() => (active--, res.end()), 200);
    });
    const d = dispatcher({ source: sourceOf(), maxPerHost: 2 });
    const all = Promise.all(Array.from({ length: 8 }, () => d.deliverNow(target(slow.url()), contentEvent("content.created"))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(d.stats().inFlight).toBe(4);
    expect((await all).every((x) => x.ok)).toBe(true);
    expect(peak).toBe(2);
  });

  it("the deadline of an attempt waiting in the pool starts when it gets its connection", async () => {
    const slow = await receiver((_req, res) => setTimeout(() => res.end(), 300));
    const d = dispatcher({ source: sourceOf(), maxPerHost: 1, timeoutMs: 500 });
    // The second waits ~300 ms for the one connection, then needs ~300 ms more: 600 ms after it was handed over.
    const results = await Promise.all(Array.from({ length: 2 }, () => d.deliverNow(target(slow.url()), contentEvent("content.created"))));
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(results[1].durationMs).toBeGreaterThanOrEqual(550);
  });

  it("maxConcurrency bounds the connections in use across hosts; waiting attempts do not count", async () => {
    let active = 0;
    let peak = 0;
    const handler = (_req: unknown, res: { end(): void }) => {
      peak = Math.max(peak, ++active);
      setTimeout(() => (active--, res.end()), 150);
    };
    const hosts = await Promise.all([receiver(handler), receiver(handler), receiver(handler)]);
    const d = dispatcher({ source: sourceOf(), maxPerHost: 2, maxConcurrency: 3 });
    const all = Promise.all(hosts.flatMap((h) => Array.from({ length: 4 }, () => d.deliverNow(target(h.url()), contentEvent("content.created")))));
    expect((await all).every((x) => x.ok)).toBe(true);
    expect(peak).toBe(3);
  });
});
