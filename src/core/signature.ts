/**
 * Webhook signatures (spec 6.4): `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw
 * body bytes>`, keyed with the UTF-8 bytes of the webhook secret. This file is the receiver helper
 * published as `contentsvc/signature` and is dependency-free on purpose: no import of any kind, so
 * it runs unchanged in Node 20+, Bun, Deno and workers.
 *
 * Crypto backend: Web Crypto (`crypto.subtle`) everywhere. Where the runtime exposes
 * `process.getBuiltinModule` (Node >= 20.16, Bun, Deno 2) the same HMAC is computed with the
 * runtime's synchronous `node:crypto` instead, fetched at run time (not imported): in Node every
 * `crypto.subtle` call is a thread-pool job, about 10x slower than `createHmac` for a webhook-sized
 * body, and DESIGN §6 asks verify to stay within 20 % of a raw `createHmac` loop. Results are identical.
 *
 * Strictness (decided here, spec 6.4.1 says "lowercase hex"): only `sha256=` + exactly 64 lowercase
 * hex digits is accepted. Uppercase hex, other prefixes, whitespace or several values are refused.
 * Verification never parses the body and never throws on bad input; it returns false.
 */

/** The signature header name, lowercase as Node and `Headers` report it. */
export const SIGNATURE_HEADER = "x-service-signature";

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
  const value = req.headers[SIGNATURE_HEADER];
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
  createHmac(algorithm: "sha256", key: string): NodeHmac;
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
