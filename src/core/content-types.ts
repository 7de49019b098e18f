/**
 * Content types: a small extension table for site files and media without a usable type, a
 * syntax check for client-sent types, and the list of types a browser could execute. Pure.
 *
 * @example
 * contentTypeFor("blog/index.html"); // "text/html; charset=utf-8"
 * normalizeContentType("Image/PNG; foo=bar"); // "image/png"
 * isActiveContentType("image/svg+xml"); // true
 */

const UTF8 = "; charset=utf-8";

/** Extension (lower case, no dot) → content type. Text types carry charset=utf-8. */
export const EXTENSION_TYPES: Readonly<Record<string, string>> = Object.freeze({
  html: `text/html${UTF8}`,
  htm: `text/html${UTF8}`,
  css: `text/css${UTF8}`,
  js: `text/javascript${UTF8}`,
  mjs: `text/javascript${UTF8}`,
  json: `application/json${UTF8}`,
  map: `application/json${UTF8}`,
  webmanifest: `application/manifest+json${UTF8}`,
  txt: `text/plain${UTF8}`,
  md: `text/markdown${UTF8}`,
  csv: `text/csv${UTF8}`,
  xml: `application/xml${UTF8}`,
  rss: `application/rss+xml${UTF8}`,
  atom: `application/atom+xml${UTF8}`,
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  wav: "audio/wav",
  pdf: "application/pdf",
  zip: "application/zip",
  wasm: "application/wasm",
});

export const OCTET_STREAM = "application/octet-stream";

/** The content type for a path by its extension; `application/octet-stream` when unknown. */
export function contentTypeFor(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot < 0) return OCTET_STREAM;
  return EXTENSION_TYPES[name.slice(dot + 1).toLowerCase()] ?? OCTET_STREAM;
}

const TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * A client-sent type reduced to `type/subtype` (lower case, parameters dropped; charset kept for
 * text), or undefined when it is not a syntactically valid media type.
 */
export function normalizeContentType(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const [essence = "", ...params] = value.split(";");
  const [type, subtype, extra] = essence.trim().toLowerCase().split("/");
  if (extra !== undefined || !type || !subtype || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => /^charset="?[a-z0-9._-]{1,40}"?$/.test(p));
  return type === "text" && charset ? `${type}/${subtype}; ${charset.replace(/"/g, "")}` : `${type}/${subtype}`;
}

/** Types a browser renders as a document or runs as script (HTML, SVG, XML, JavaScript …). */
const ACTIVE = new Set([
  "text/html",
  "application/xhtml+xml",
  "image/svg+xml",
  "text/xml",
  "application/xml",
  "text/xsl",
  "application/xslt+xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "text/javascript",
  "text/ecmascript",
  "text/jscript",
  "application/wasm",
  "multipart/x-mixed-replace",
]);

/**
 * True when serving `type` inline could execute code in a browser; also any `+xml` type, since
 * XML can carry XHTML or script namespaces.
 */
export function isActiveContentType(type: string): boolean {
  const essence = type.split(";")[0]!.trim().toLowerCase();
  return ACTIVE.has(essence) || essence.endsWith("+xml");
}
