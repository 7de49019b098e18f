/**
 * Conditional and range requests for immutable bytes (RFC 9110 §13, §14): strong ETags,
 * If-None-Match / If-Modified-Since, and a single byte range. Pure.
 *
 * @example
 * parseRange("bytes=0-99", 1000); // { kind: "range", start: 0, end: 99 }
 * parseRange("bytes=2000-", 1000); // { kind: "unsatisfiable" }
 * isNotModified({ ifNoneMatch: '"abc"' }, '"abc"', new Date()); // true
 */

export type RangeResult =
  /** No Range header, an unparseable one, or several ranges: answer 200 with everything. */
  | { kind: "none" }
  /** One satisfiable range, inclusive bounds: answer 206. */
  | { kind: "range"; start: number; end: number }
  /** Syntactically valid but outside the representation: answer 416. */
  | { kind: "unsatisfiable" };

const SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * One byte range of `size` bytes. Several ranges are answered whole (RFC 9110 §14.2 lets a server
 * ignore Range), which avoids multipart/byteranges.
 */
export function parseRange(header: string | null | undefined, size: number): RangeResult {
  if (!header) return { kind: "none" };
  const eq = header.indexOf("=");
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return { kind: "none" };
  const specs = header.slice(eq + 1).split(",");
  if (specs.length !== 1) return { kind: "none" };
  const m = SPEC.exec(specs[0]!);
  if (!m || (m[1] === "" && m[2] === "")) return { kind: "none" };
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === "" ? Infinity : Number(m[2]);
  if (last < start) return { kind: "none" }; // invalid range-spec: ignore the header
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(last, size - 1) };
}

const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);

/** True when an If-None-Match list names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === "*") return true;
  const target = opaque(etag);
  return ifNoneMatch.split(",").some((t) => opaque(t.trim()) === target);
}

/**
 * True when a GET/HEAD may be answered 304: If-None-Match wins; If-Modified-Since is consulted
 * only without it (RFC 9110 §13.1.3).
 */
export function isNotModified(
  conditions: { ifNoneMatch?: string | null; ifModifiedSince?: string | null },
  etag: string,
  lastModified?: Date,
): boolean {
  if (conditions.ifNoneMatch) return etagMatches(conditions.ifNoneMatch, etag);
  if (!lastModified || !conditions.ifModifiedSince) return false;
  const since = Date.parse(conditions.ifModifiedSince);
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/**
 * True when an If-Range precondition allows the range: absent, or it names exactly the strong
 * `etag` (a date validator never matches, since our validator of record is the ETag).
 */
export function ifRangeAllows(ifRange: string | null | undefined, etag: string): boolean {
  if (!ifRange) return true;
  return ifRange.trim() === etag && !etag.startsWith("W/");
}
