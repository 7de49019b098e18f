/**
 * Content types: the type for a file name (mime's database) for site files and media without a
 * usable type, a syntax check for client-sent types, and the list of types a browser could execute
 * (this policy stays ours). Pure.
 *
 * @example
 * contentTypeFor("blog/index.html"); // "text/html; charset=utf-8"
 * normalizeContentType("Image/PNG; foo=bar"); // "image/png"
 * isActiveContentType("image/svg+xml"); // true
 */

import { Mime } from "mime/lite";
import standardTypes from "mime/types/standard.js";

/**
 * Extension → type from mime's standard database (IANA types plus the common web ones; pure
 * data, no I/O). `.ico` keeps `image/x-icon`, the name browsers and this service have always used
 * (the standard database lists it only under a vendor type).
 */
let types: Mime | undefined;
// Built on the first lookup: indexing the database is start-up CPU that a start need not pay
// (measured: docs/benchmarks.md, "Figures behind code comments").
const TYPES = () => (types ??= new Mime(standardTypes).define({ "image/x-icon": ["ico"] }, true));

export const OCTET_STREAM = "application/octet-stream";

/** Textual types whose bytes we store as UTF-8: served with an explicit charset. */
const isText = (type: string) => type.startsWith("text/") || /^application\/(?:[a-z0-9.+-]+\+)?(?:json|xml)$/.test(type);

/** The content type for a path by its extension (text types with charset=utf-8); `application/octet-stream` when unknown. */
export function contentTypeFor(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot < 0 || dot === name.length - 1) return OCTET_STREAM;
  // Only the extension is looked up: a bare name such as "json" is not a type.
  const type = TYPES().getType(name.slice(dot + 1).toLowerCase());
  if (!type) return OCTET_STREAM;
  return isText(type) ? `${type}; charset=utf-8` : type;
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
