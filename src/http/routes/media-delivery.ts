/**
 * The public response for an asset's bytes (spec 4.1): stored type, strong sha256 ETag, immutable
 * caching (ids never change content), conditional 304, one byte range (206/416), nosniff, and a
 * Content-Disposition with the sanitised name. Types a browser could execute (HTML, SVG, XML,
 * JavaScript …) keep their type, so `<img src>` of an SVG still works, but are sent as an
 * attachment under a sandboxing CSP, so opening one never runs script on the workspace's host.
 */
import { contentDisposition } from "../../core/filenames.js";
import { isActiveContentType } from "../../core/content-types.js";
import { ifRangeAllows, isNotModified, parseRange } from "../../core/http-cache.js";
import type { MediaRecord } from "../../services/media.js";

/** One year: the id names immutable bytes (a replaced file is a new id). */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** For active types: no scripts, no plugins, no same-origin privileges even if rendered. */
export const MEDIA_SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Builds the GET/HEAD response for an asset (h3 drops the body of a HEAD). */
export function mediaResponse(request: Request, record: MediaRecord, bytes: Uint8Array): Response {
  const etag = `"${record.sha256}"`;
  const lastModified = new Date(record.created_at);
  const headers = new Headers({
    etag,
    "last-modified": lastModified.toUTCString(),
    "cache-control": MEDIA_CACHE_CONTROL,
    "x-content-type-options": "nosniff",
  });
  const conditions = { ifNoneMatch: request.headers.get("if-none-match"), ifModifiedSince: request.headers.get("if-modified-since") };
  if (isNotModified(conditions, etag, lastModified)) return new Response(null, { status: 304, headers });

  const active = isActiveContentType(record.content_type);
  headers.set("content-type", record.content_type);
  headers.set("content-disposition", contentDisposition(active ? "attachment" : "inline", record.filename));
  if (active) headers.set("content-security-policy", MEDIA_SANDBOX_CSP);
  headers.set("accept-ranges", "bytes");

  const size = bytes.byteLength;
  const range = ifRangeAllows(request.headers.get("if-range"), etag) ? parseRange(request.headers.get("range"), size) : { kind: "none" as const };
  if (range.kind === "unsatisfiable") {
    const body = JSON.stringify({ error: "Range not satisfiable", size });
    headers.set("content-type", "application/json; charset=utf-8");
    headers.delete("content-disposition");
    headers.set("content-range", `bytes */${size}`);
    headers.set("content-length", String(Buffer.byteLength(body)));
    return new Response(body, { status: 416, headers });
  }
  if (range.kind === "range") {
    const part = bytes.subarray(range.start, range.end + 1);
    headers.set("content-range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("content-length", String(part.byteLength));
    return new Response(part as Uint8Array<ArrayBuffer>, { status: 206, headers });
  }
  headers.set("content-length", String(size));
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
}
