/**
 * Webhook signatures (spec 6.4): `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw
 * body bytes>`, keyed with the UTF-8 bytes of the webhook secret. This file is the receiver helper
 * published as `contentsvc/signature` and is dependency-free on purpose: no import of any kind, so
 * it runs unchanged in Node 20+, Bun, Deno and workers.
 *
 * Crypto backend: Web Crypto (`crypto.subtle`) everywhere. Where the runtime exposes
 * `process.getBuiltinModule` (Node >= 20.16, Bun, Deno 2) the same HMAC is computed with the
 * runtime's synchronous `node:crypto` instead, fetched at run time (not imported): in Node every
 * `crypto.subtle` call is a thread-pool job, several times slower than `createHmac` for a
 * webhook-sized body (measured: docs/benchmarks.md, "Figures behind code comments"), and DESIGN §6 asks
 * verify to stay within 20 % of a raw `createHmac` loop. Results are identical.
 *
 * Strictness (decided here, spec 6.4.1 says "lowercase hex"): only `sha256=` + exactly 64 lowercase
 * hex digits is accepted. Uppercase hex, other prefixes, whitespace or several values are refused.
 * Verification never parses the body and never throws on bad input; it returns false.
 */

/**
 * The signature header (spec 6.4.1), spelled as the spec and the sender write it. Header names are
 * case-insensitive: `Headers.get` takes it as is; Node's `req.headers` keys are lowercase, so look
 * it up as `SIGNATURE_HEADER.toLowerCase()`.
 */
export const SIGNATURE_HEADER = "X-Service-Signature";

/** `SIGNATURE_HEADER` as node:http reports it. */
const NODE_SIGNATURE_HEADER = SIGNATURE_HEADER.toLowerCase();

/** Raw body as received: the exact bytes, or a string (hashed as its UTF-8 bytes). */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Why a request was not verified. `body_too_large` only from {@link verifyNodeRequest}. */
export type VerifyFailure = "missing_signature" | "bad_signature" | "body_too_large";

/** The outcome of {@link verifyRequest} / {@link verifyNodeRequest}. */
export type VerifyResult =
  | { ok: true; body: string; rawBody: Uint8Array }
  | { ok: false; reason: VerifyFailure };

/** Options of {@link verifyNodeRequest}. */
export interface VerifyNodeRequestOptions {
  /** Largest body read, in bytes; a larger one stops reading and yields `body_too_large`. Default 1 MiB. */
  maxBytes?: number;
}

/** The shape of a node:http `IncomingMessage` (or Express `req`) that we need, duck-typed. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The header value for `body`: `"sha256=" + lowercase hex HMAC-SHA256`.
 *
 * @example
 * await signPayload("Hello, World!", "It's a Secret to Everybody")
 * // "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
 */
export async function signPayload(body: RawBody, secret: string): Promise<string> {
  if (typeof secret !== "string" || secret === "") throw new TypeError("signPayload: secret must be a non-empty string");
  const bytes = toBytes(body);
  if (bytes === null) throw new TypeError("signPayload: body must be a string, Uint8Array or ArrayBuffer");
  if (nodeCrypto) return PREFIX + nodeCrypto.createHmac("sha256", secret).update(bytes).digest("hex");
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), bytes as BufferSource));
  let hex = PREFIX;
  for (let i = 0; i < mac.length; i++) hex += HEX[mac[i]];
  return hex;
}

/**
 * True when `header` is the signature of exactly these raw bytes under `secret`. Constant-time and
 * length-checked; never throws (any bad input is simply false).
 *
 * @example
 * const ok = await verifySignature(rawBody, req.headers["x-service-signature"], process.env.WEBHOOK_SECRET!);
 * if (!ok) return new Response("bad signature", { status: 401 });
 */
export async function verifySignature(
  rawBody: RawBody,
  header: string | null | undefined,
  secret: string,
): Promise<boolean> {
  try {
    if (typeof secret !== "string" || secret === "") return false;
    const expected = decodeHeader(header);
    if (expected === null) return false;
    if (nodeCrypto) {
      // A string goes to the HMAC as UTF-8 directly: no copy through TextEncoder.
      const input = typeof rawBody === "string" ? rawBody : toBytes(rawBody);
      if (input === null) return false;
      const mac = nodeCrypto.createHmac("sha256", secret).update(input).digest();
      if (mac.length !== expected.length) return false;
      let diff = 0;
      for (let i = 0; i < mac.length; i++) diff |= mac[i] ^ expected[i];
      return diff === 0;
    }
    const bytes = toBytes(rawBody);
    if (bytes === null) return false;
    // crypto.subtle.verify compares in constant time (Web Crypto HMAC verify).
    return await crypto.subtle.verify("HMAC", await hmacKey(secret), expected, bytes as BufferSource);
  } catch {
    return false;
  }
}

/**
 * Verifies a web `Request` (Bun.serve, Deno.serve, workers, h3): reads the raw body exactly once.
 * The body is not read when the header is missing.
 *
 * @example
 * Deno.serve(async (req) => {
 *   const v = await verifyRequest(req, secret);
 *   if (!v.ok) return new Response(v.reason, { status: 401 });
 *   const event = JSON.parse(v.body);
 *   return new Response(null, { status: 204 });
 * });
 */
export async function verifyRequest(request: Request, secret: string): Promise<VerifyResult> {
  const header = request.headers.get(SIGNATURE_HEADER);
  if (header === null || header === "") return { ok: false, reason: "missing_signature" };
  const rawBody = new Uint8Array(await request.arrayBuffer());
  return finish(rawBody, header, secret);
}

/**
 * Verifies a node:http `IncomingMessage` or Express `req`: streams the raw body (at most
 * `maxBytes`, default 1 MiB; the stream is destroyed beyond it). Mount it before any JSON body
 * parser, or use `express.raw()`: a Buffer already in `req.body` is used as the raw body. Do not
 * call `req.setEncoding()`: the signature is over bytes.
 *
 * @example
 * http.createServer(async (req, res) => {
 *   const v = await verifyNodeRequest(req, secret);
 *   res.writeHead(v.ok ? 204 : v.reason === "body_too_large" ? 413 : 401).end();
 * });
 */
export async function verifyNodeRequest(
  req: NodeRequestLike,
  secret: string,
  options?: VerifyNodeRequestOptions,
): Promise<VerifyResult> {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const value = req.headers[NODE_SIGNATURE_HEADER];
  if (value === undefined || value === "") return { ok: false, reason: "missing_signature" };
  // Several signature headers are ambiguous: refuse rather than pick one.
  if (typeof value !== "string") return value.length === 0 ? { ok: false, reason: "missing_signature" } : { ok: false, reason: "bad_signature" };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: "body_too_large" };
  const parsed = (req as { body?: unknown }).body;
  if (parsed instanceof Uint8Array) {
    if (parsed.byteLength > maxBytes) return { ok: false, reason: "body_too_large" };
    return finish(parsed, value, secret);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > maxBytes) return { ok: false, reason: "body_too_large" }; // leaving the loop destroys the stream
    chunks.push(bytes);
  }
  return finish(concat(chunks, total), value, secret);
}

// ---------------------------------------------------------------------------------------------

const PREFIX = "sha256=";
const DEFAULT_MAX_BYTES = 1024 * 1024;
const KEY_CACHE_MAX = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

interface NodeHmac {
  update(data: Uint8Array | string): NodeHmac;
  digest(): Uint8Array;
  digest(encoding: "hex"): string;
}
interface NodeCryptoLike {
  createHmac(algorithm: "sha256", key: string | Uint8Array): NodeHmac;
}

const nodeCrypto: NodeCryptoLike | undefined = loadNodeCrypto();

function loadNodeCrypto(): NodeCryptoLike | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.("node:crypto") as Partial<NodeCryptoLike> | undefined;
    return typeof mod?.createHmac === "function" ? (mod as NodeCryptoLike) : undefined;
  } catch {
    return undefined;
  }
}

/** Imported HMAC keys per secret; small and bounded (oldest evicted), a rejected import is not kept. */
const keyCache = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  const cached = keyCache.get(secret);
  if (cached) return cached;
  const key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  key.catch(() => keyCache.delete(secret));
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(secret, key);
  return key;
}

async function finish(rawBody: Uint8Array, header: string, secret: string): Promise<VerifyResult> {
  if (!(await verifySignature(rawBody, header, secret))) return { ok: false, reason: "bad_signature" };
  return { ok: true, body: decoder.decode(rawBody), rawBody };
}

function toBytes(body: unknown): Uint8Array | null {
  if (typeof body === "string") return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return null;
}

/** `sha256=` + 64 lowercase hex digits -> the 32 MAC bytes; anything else -> null. */
function decodeHeader(header: unknown): Uint8Array<ArrayBuffer> | null {
  if (typeof header !== "string" || header.length !== PREFIX.length + 64 || !header.startsWith(PREFIX)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    const hi = hexDigit(header.charCodeAt(PREFIX.length + 2 * i));
    const lo = hexDigit(header.charCodeAt(PREFIX.length + 2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f only: spec 6.4.1 says lowercase
  return -1;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Standard Webhooks (https://www.standardwebhooks.com), sent in addition to X-Service-Signature
// when a webhook has standard_webhooks on: `webhook-signature: v1,<base64 HMAC-SHA256 of
// "{webhook-id}.{webhook-timestamp}.{body}">`, space-separated when several secrets sign.
//
// Key (decided here): the secret as a Standard Webhooks library takes it, so a receiver passes the
// webhook secret unchanged to any of them: the text after `whsec_` decoded as base64. Our secrets
// are `whsec_` + 64 hex digits, which is valid base64 (48 key bytes). A secret that is not valid
// base64 after the prefix (only possible for an embedder's own secrets) keys with its UTF-8 bytes,
// the libraries' "raw" format.

/** Header names of Standard Webhooks, lowercase. */
export const STANDARD_WEBHOOK_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;

/** Options of {@link verifyStandardWebhook}. */
export interface VerifyStandardWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, seconds. Default 300 (5 min). */
  toleranceSeconds?: number;
  /** Current time, ms since the epoch (tests). Default `Date.now()`. */
  now?: number;
}

/** Headers as a `Headers` object or a plain record (node:http `req.headers`, any case). */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/**
 * The HMAC key of `secret` under the Standard Webhooks convention (see above).
 *
 * @example
 * standardWebhookKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").length // 24
 */
export function standardWebhookKey(secret: string): Uint8Array {
  const text = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const decoded = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text) && text !== "" ? base64Decode(text) : null;
  return decoded ?? encoder.encode(secret);
}

/**
 * One `v1,<base64>` signature of `body` for message `id` at `timestamp` (seconds since the epoch).
 *
 * @example
 * await signStandardWebhook("msg_1", 1700000000, '{"a":1}', secret) // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export async function signStandardWebhook(id: string, timestamp: number, body: RawBody, secret: string): Promise<string> {
  const bytes = toBytes(body);
  if (bytes === null) throw new TypeError("signStandardWebhook: body must be a string, Uint8Array or ArrayBuffer");
  return `v1,${base64Encode(await hmacBytes(standardWebhookKey(secret), concatBytes(encoder.encode(`${id}.${timestamp}.`), bytes)))}`;
}

/**
 * True when the Standard Webhooks headers of a delivery sign exactly these raw bytes under
 * `secret` and `webhook-timestamp` is within `toleranceSeconds` of now. Any one of the
 * space-separated `v1,` signatures may match (during a secret rotation two are sent).
 * Constant-time, never throws.
 *
 * @example
 * const ok = await verifyStandardWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 */
export async function verifyStandardWebhook(
  rawBody: RawBody,
  headers: HeadersLike,
  secret: string,
  options?: VerifyStandardWebhookOptions,
): Promise<boolean> {
  try {
    if (typeof secret !== "string" || secret === "") return false;
    const id = headerValue(headers, STANDARD_WEBHOOK_HEADERS.id);
    const timestamp = headerValue(headers, STANDARD_WEBHOOK_HEADERS.timestamp);
    const signatures = headerValue(headers, STANDARD_WEBHOOK_HEADERS.signature);
    if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
    const tolerance = options?.toleranceSeconds ?? 300;
    const now = Math.floor((options?.now ?? Date.now()) / 1000);
    if (Math.abs(now - Number(timestamp)) > tolerance) return false;
    const bytes = toBytes(rawBody);
    if (bytes === null) return false;
    const expected = await hmacBytes(standardWebhookKey(secret), concatBytes(encoder.encode(`${id}.${timestamp}.`), bytes));
    let matched = false;
    for (const candidate of signatures.split(" ")) {
      if (!candidate.startsWith("v1,")) continue;
      const given = base64Decode(candidate.slice(3));
      if (given === null || given.length !== expected.length) continue;
      let diff = 0;
      for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ given[i];
      // No early exit: every candidate is compared, so timing does not tell which one matched.
      matched = matched || diff === 0;
    }
    return matched;
  } catch {
    return false;
  }
}

function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return typeof value === "string" ? value : undefined;
}

async function hmacBytes(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (nodeCrypto) return new Uint8Array(nodeCrypto.createHmac("sha256", key).update(data).digest());
  const imported = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, data as BufferSource));
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64Encode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : "=";
    out += i + 2 < bytes.length ? B64[n & 63] : "=";
  }
  return out;
}

/** Standard base64 with padding → bytes; anything malformed → null. */
function base64Decode(text: string): Uint8Array | null {
  if (text.length % 4 !== 0) return null;
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const c = text[i + j];
      const v = c === "=" && i + 4 === text.length && j >= 4 - pad ? 0 : B64.indexOf(c);
      if (v < 0) return null;
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
