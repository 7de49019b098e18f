/**
 * Reading request bodies with a size limit and clear 4xx errors. Never trusts Content-Length alone:
 * the stream is counted as it is read (h3's `assertBodySize`). Parsing stays ours, because h3's
 * `readBody` has no limit, replaces invalid UTF-8 instead of refusing it and never answers 415
 * (CONTRIBUTING.md, "Libraries instead of hand-written code"); so do the JSON-safety checks.
 */
import type { Readable } from "node:stream";
import { assertBodySize, HTTPError, type H3Event } from "h3";
import type getRawBodyFunction from "raw-body";
import { badRequest, payloadTooLarge, unsupportedMediaType } from "../core/errors.js";
import { refuseNul } from "../core/nul.js";

// `__proto__` alone: copied into a plain object it replaces the prototype. `constructor` and
// `prototype` are ordinary names (a collection may have such a field); what reads user-named keys
// reads them as data (core/records.ts).
const FORBIDDEN_KEY = "__proto__";
export const MAX_JSON_DEPTH = 32;

// raw-body (with iconv-lite and http-errors) is slow to load (measured: docs/benchmarks.md,
// "Figures behind code comments"): loaded by the first body it reads, not on the way to a
// server's first response.
let getRawBody: typeof getRawBodyFunction | undefined;

/** Requests whose body was read to its end. */
const readToEnd = new WeakSet<H3Event>();

/**
 * True when the request carries a body that was not read to its end: a refusal (401, 413, 415…)
 * sent before or while reading. Such a response must say `Connection: close`: the server will not
 * read the rest, so the socket cannot serve a next request, and a keep-alive client that trusted
 * the header would send its next request into a closed connection.
 */
export function bodyLeftUnread(event: H3Event): boolean {
  if (readToEnd.has(event)) return false;
  const headers = event.req.headers;
  return Number(headers.get("content-length") ?? 0) > 0 || headers.has("transfer-encoding");
}

/**
 * Reads the raw body as bytes, refusing with 413 past `limit`. A declared length over the limit is
 * refused before reading; otherwise h3's streaming limit (`assertBodySize`) counts the bytes as
 * they arrive and errors at the first chunk past the limit, so nothing beyond it is buffered.
 */
export async function readBytes(event: H3Event, limit: number): Promise<Uint8Array> {
  const declared = Number(event.req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  // Before `event.req.body`, which would wrap the Node stream in a web stream.
  const nodeReq = event.runtime?.node?.req;
  if (nodeReq && Number.isFinite(declared) && !event.req.headers.has("transfer-encoding") && !event.req.bodyUsed) {
    return readNodeBody(event, nodeReq, limit);
  }
  if (!event.req.body) {
    readToEnd.add(event);
    return new Uint8Array(0);
  }
  assertBodySize(event, limit);
  let bytes: ArrayBuffer;
  try {
    bytes = await event.req.arrayBuffer();
  } catch (error) {
    // The refusal says Connection: close (bodyLeftUnread): the rest of the body is never read.
    if (HTTPError.isError(error) && error.status === 413) throw payloadTooLarge(limit);
    throw error;
  }
  readToEnd.add(event);
  return new Uint8Array(bytes);
}

/**
 * On Node, a body of declared length (within the limit, checked above) straight from the
 * request's stream: the web stream h3 would wrap it in, and the size-limiting stream around that,
 * cost more CPU than a small JSON write's own work. Node's parser ends the body at the declared
 * length, so it cannot outgrow the limit; `limit` stays as a guard. A body of unknown length
 * (chunked) takes h3's streaming limit, which refuses it while it is still arriving.
 */
async function readNodeBody(event: H3Event, req: Readable, limit: number): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    getRawBody ??= (await import("raw-body")).default;
    bytes = await getRawBody(req, { limit });
  } catch (error) {
    if ((error as { type?: string }).type === "entity.too.large") throw payloadTooLarge(limit);
    throw error;
  }
  readToEnd.add(event);
  return bytes;
}

/**
 * The raw body as chunks, for a consumer that handles it as it arrives (a site deploy): a declared
 * length over `limit` is refused here, before reading; the chunks are counted as they stream (413
 * at the first one past `limit`). Nothing is read until the answer is iterated, so a caller may
 * wait for a lock first with the body still on the socket.
 */
export function streamBody(event: H3Event, limit: number): AsyncIterable<Uint8Array> {
  const declared = Number(event.req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit);
  const source = (event.runtime?.node?.req as AsyncIterable<Uint8Array> | undefined) ?? webChunks(event.req.body);
  return (async function* () {
    let size = 0;
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > limit) throw payloadTooLarge(limit);
      yield chunk;
    }
    readToEnd.add(event);
  })();
}

async function* webChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    reader.releaseLock();
  }
}

/** Checks parsed JSON for a `__proto__` key, at any depth, and for absurd nesting. */
export function assertSafeJson(value: unknown, depth = 0): void {
  if (depth > MAX_JSON_DEPTH) throw badRequest(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const v of value) assertSafeJson(v, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === FORBIDDEN_KEY) throw badRequest(`Key "__proto__" is not allowed in a JSON body`, { field: k });
      assertSafeJson(v, depth + 1);
    }
  }
}

/**
 * Reads a JSON body: 415 for another content type, 400 for malformed JSON or invalid UTF-8,
 * 413 past `limit`. An empty body reads as `undefined`.
 */
export async function readJson(event: H3Event, limit: number): Promise<unknown> {
  const type = event.req.headers.get("content-type") ?? "";
  const bytes = await readBytes(event, limit);
  if (bytes.byteLength === 0) return undefined;
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw unsupportedMediaType("Send a JSON body with Content-Type: application/json");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("Request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`Malformed JSON body: ${(error as Error).message}`);
  }
  assertSafeJson(value);
  // Every stored string comes through here or a validator using the same rule (core/nul.ts).
  refuseNul(value);
  return value;
}

/** A JSON body that must be an object. */
export async function readJsonObject(event: H3Event, limit: number): Promise<Record<string, unknown>> {
  const value = await readJson(event, limit);
  if (value === undefined) throw badRequest("Request body is required (a JSON object)");
  if (!value || typeof value !== "object" || Array.isArray(value)) throw badRequest("Request body must be a JSON object");
  return value as Record<string, unknown>;
}

/** Routes check their bodies' field sets with the rule services use too. */
export { assertKnownFields } from "../core/fields.js";
