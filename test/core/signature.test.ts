import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as fast from "../../src/core/signature.js";
import * as entry from "../../src/signature.js";

type SignatureModule = typeof fast;

/** A fresh copy of the module that cannot see `process.getBuiltinModule`: the pure Web Crypto path. */
async function loadWebCryptoOnly(): Promise<SignatureModule> {
  const proc = process as { getBuiltinModule?: unknown };
  const original = proc.getBuiltinModule;
  proc.getBuiltinModule = undefined;
  vi.resetModules();
  try {
    return (await import("../../src/core/signature.js")) as SignatureModule;
  } finally {
    proc.getBuiltinModule = original;
    vi.resetModules();
  }
}

const hmacHex = (body: string | Uint8Array, secret: string) =>
  "sha256=" + createHmac("sha256", secret).update(body).digest("hex");

const GITHUB = {
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
};

const impls: [string, () => Promise<SignatureModule>][] = [
  ["node:crypto fast path", async () => fast],
  ["Web Crypto only", loadWebCryptoOnly],
];

describe.each(impls)("signature (%s)", (_label, load) => {
  let m: SignatureModule;
  beforeAll(async () => {
    m = await load();
  });

  it("uses the backend it claims", async () => {
    const spy = vi.spyOn(crypto.subtle, "sign");
    await m.signPayload("x", "s");
    expect(spy.mock.calls.length > 0).toBe(_label === "Web Crypto only");
    spy.mockRestore();
  });

  it("matches an independent node:crypto HMAC and the GitHub vector", async () => {
    const body = JSON.stringify({ event: "content.created", data: { collection: "posts", entry: { id: "1", t: "é✓" } } });
    expect(await m.signPayload(body, "whsec_test")).toBe(hmacHex(body, "whsec_test"));
    expect(await m.signPayload(new TextEncoder().encode(body), "whsec_test")).toBe(hmacHex(body, "whsec_test"));
    expect(await m.signPayload(new TextEncoder().encode(body).buffer as ArrayBuffer, "whsec_test")).toBe(hmacHex(body, "whsec_test"));
    expect(await m.signPayload(GITHUB.body, GITHUB.secret)).toBe(GITHUB.signature);
    expect(await m.verifySignature(GITHUB.body, GITHUB.signature, GITHUB.secret)).toBe(true);
  });

  it("signs the raw bytes: a re-serialized body does not verify", async () => {
    const raw = '{"event":"content.updated",  "data":{"collection":"posts"},"timestamp":"2024-01-01T00:00:00.000Z"}';
    const header = await m.signPayload(raw, "k");
    expect(await m.verifySignature(raw, header, "k")).toBe(true);
    expect(await m.verifySignature(JSON.stringify(JSON.parse(raw)), header, "k")).toBe(false);
  });

  const good = GITHUB.signature;
  const refusals: [string, unknown, unknown, unknown][] = [
    ["tampered body", "Hello, World?", good, GITHUB.secret],
    ["tampered header", GITHUB.body, good.slice(0, -1) + "f", GITHUB.secret],
    ["wrong secret", GITHUB.body, good, "It's a secret to everybody"],
    ["missing prefix", GITHUB.body, good.slice(7), GITHUB.secret],
    ["other prefix", GITHUB.body, "sha1=" + good.slice(7), GITHUB.secret],
    ["uppercase prefix", GITHUB.body, "SHA256=" + good.slice(7), GITHUB.secret],
    ["uppercase hex", GITHUB.body, "sha256=" + good.slice(7).toUpperCase(), GITHUB.secret],
    ["too short", GITHUB.body, good.slice(0, -2), GITHUB.secret],
    ["too long", GITHUB.body, good + "00", GITHUB.secret],
    ["non-hex", GITHUB.body, good.slice(0, -1) + "g", GITHUB.secret],
    ["surrounding space", GITHUB.body, ` ${good}`, GITHUB.secret],
    ["two values", GITHUB.body, `${good},${good}`, GITHUB.secret],
    ["empty header", GITHUB.body, "", GITHUB.secret],
    ["null header", GITHUB.body, null, GITHUB.secret],
    ["undefined header", GITHUB.body, undefined, GITHUB.secret],
    ["non-string header", GITHUB.body, 42, GITHUB.secret],
    ["empty secret", GITHUB.body, good, ""],
    ["non-string secret", GITHUB.body, good, undefined],
    ["non-body", { a: 1 }, good, GITHUB.secret],
  ];
  it.each(refusals)("refuses: %s (false, never throws)", async (_name, body, header, secret) => {
    await expect(m.verifySignature(body as string, header as string, secret as string)).resolves.toBe(false);
  });

  it("verifyRequest reads a real Request once", async () => {
    const body = '{"event":"form.submitted"}';
    const ok = await m.verifyRequest(
      new Request("https://r.example/hook", { method: "POST", body, headers: { "X-Service-Signature": hmacHex(body, "s") } }),
      "s",
    );
    expect(ok).toEqual({ ok: true, body, rawBody: new TextEncoder().encode(body) });
    const bad = new Request("https://r.example/hook", { method: "POST", body: body + " ", headers: { "x-service-signature": hmacHex(body, "s") } });
    expect(await m.verifyRequest(bad, "s")).toEqual({ ok: false, reason: "bad_signature" });
    expect(bad.bodyUsed).toBe(true);
    const missing = new Request("https://r.example/hook", { method: "POST", body });
    expect(await m.verifyRequest(missing, "s")).toEqual({ ok: false, reason: "missing_signature" });
    expect(missing.bodyUsed).toBe(false);
  });

  it("fast-check: sign then verify is always true; any single-byte change is false", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.string({ minLength: 1 }), async (body, secret) => {
        expect(await m.verifySignature(body, await m.signPayload(body, secret), secret)).toBe(true);
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, at, flip) => {
          const header = await m.signPayload(body, "secret");
          const changed = body.slice();
          changed[at % changed.length] ^= flip;
          expect(await m.verifySignature(changed, header, "secret")).toBe(false);
        },
      ),
    );
  });
});

describe("verifyNodeRequest over a real node:http server", () => {
  let server: Server;
  let base: string;
  const results: Promise<fast.VerifyResult>[] = [];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const maxBytes = Number(req.headers["x-max-bytes"] ?? 1024 * 1024);
      const result = fast.verifyNodeRequest(req, "node-secret", { maxBytes });
      results.push(result);
      void result.then((r) => res.writeHead(r.ok ? 200 : 401, { "content-type": "application/json" }).end(JSON.stringify(r.ok ? { body: r.body } : r)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: string, headers: Record<string, string>) =>
    fetch(base, { method: "POST", body, headers }).then(async (r) => ({ status: r.status, json: await r.json() }));

  it("accepts a signed POST and returns the exact body", async () => {
    const body = '{"event":"content.published","data":{"t":"ü"}}';
    expect(await post(body, { "x-service-signature": hmacHex(body, "node-secret") })).toEqual({ status: 200, json: { body } });
  });

  it("refuses tampered, missing and oversized bodies", async () => {
    const body = '{"a":1}';
    expect((await post('{"a":2}', { "x-service-signature": hmacHex(body, "node-secret") })).json).toEqual({ ok: false, reason: "bad_signature" });
    expect((await post(body, {})).json).toEqual({ ok: false, reason: "missing_signature" });
    const big = "x".repeat(64);
    expect((await post(big, { "x-service-signature": hmacHex(big, "node-secret"), "x-max-bytes": "16" })).json).toEqual({
      ok: false,
      reason: "body_too_large",
    });
  });

  it("stops reading a chunked body past maxBytes", async () => {
    const chunks = [new Uint8Array(10).fill(65), new Uint8Array(10).fill(66)];
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    results.length = 0;
    await fetch(base, {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "x-service-signature": hmacHex("A".repeat(10) + "B".repeat(10), "node-secret"), "x-max-bytes": "15" },
    } as RequestInit).catch(() => undefined); // the server may reset the stream it stopped reading
    await vi.waitFor(() => expect(results.length).toBe(1));
    expect(await results[0]).toEqual({ ok: false, reason: "body_too_large" });
  });

  it("uses an express.raw() Buffer body when the stream was already consumed", async () => {
    const raw = Buffer.from('{"x":true}');
    const req = Object.assign((async function* () {})(), { headers: { "x-service-signature": hmacHex(raw, "k") }, body: raw });
    expect(await fast.verifyNodeRequest(req, "k")).toEqual({ ok: true, body: '{"x":true}', rawBody: raw });
    const twice = { ...req, headers: { "x-service-signature": [hmacHex(raw, "k"), hmacHex(raw, "k")] } };
    expect(await fast.verifyNodeRequest(twice, "k")).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("accepts string chunks (duck-typed AsyncIterable)", async () => {
    const req = Object.assign((async function* () { yield '{"a":'; yield "1}"; })(), { headers: { "x-service-signature": hmacHex('{"a":1}', "k") } });
    expect(await fast.verifyNodeRequest(req, "k")).toMatchObject({ ok: true, body: '{"a":1}' });
  });
});

describe("package surface", () => {
  it("contentsvc/signature re-exports the helpers", () => {
    expect(Object.keys(entry).sort()).toEqual([
      "SIGNATURE_HEADER", "STANDARD_WEBHOOK_HEADERS", "signPayload", "signStandardWebhook", "standardWebhookKey",
      "verifyNodeRequest", "verifyRequest", "verifySignature", "verifyStandardWebhook",
    ]);
    expect(entry.SIGNATURE_HEADER).toBe("X-Service-Signature");
    expect(entry.verifySignature).toBe(fast.verifySignature);
  });

  it("src/core/signature.ts has no import or require of any kind", () => {
    const source = readFileSync(new URL("../../src/core/signature.ts", import.meta.url), "utf8");
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    expect(code).not.toMatch(/^\s*import[\s{*"']/m);
    expect(code).not.toMatch(/^\s*export\s[^;]*\sfrom\s/m);
    expect(code).not.toMatch(/\bimport\s*\(/);
    expect(code).not.toMatch(/\bimport\.meta\b/);
    expect(code).not.toMatch(/\brequire\s*\(/);
  });
});
