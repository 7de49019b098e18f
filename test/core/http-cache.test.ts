/**
 * Range parsing (one range, suffix, open end, unsatisfiable, ignored forms), ETag matching and
 * the 304 decision (RFC 9110 §13, §14).
 */
import { describe, expect, it } from "vitest";
import { etagMatches, ifRangeAllows, isNotModified, parseRange } from "../../src/core/http-cache.js";

describe("parseRange", () => {
  it.each([
    [null, 10, { kind: "none" }],
    ["bytes=0-0", 10, { kind: "range", start: 0, end: 0 }],
    ["bytes=2-5", 10, { kind: "range", start: 2, end: 5 }],
    ["bytes=2-", 10, { kind: "range", start: 2, end: 9 }],
    ["bytes=9-", 10, { kind: "range", start: 9, end: 9 }],
    ["bytes=5-100", 10, { kind: "range", start: 5, end: 9 }],
    ["bytes=-3", 10, { kind: "range", start: 7, end: 9 }],
    ["bytes=-30", 10, { kind: "range", start: 0, end: 9 }],
    [" Bytes = 1 - 2 ", 10, { kind: "range", start: 1, end: 2 }],
    ["bytes=10-", 10, { kind: "unsatisfiable" }],
    ["bytes=10-20", 10, { kind: "unsatisfiable" }],
    ["bytes=-0", 10, { kind: "unsatisfiable" }],
    ["bytes=-5", 0, { kind: "unsatisfiable" }],
    ["bytes=0-", 0, { kind: "unsatisfiable" }],
    ["bytes=5-2", 10, { kind: "none" }],
    ["bytes=0-1,3-4", 10, { kind: "none" }],
    ["bytes=-", 10, { kind: "none" }],
    ["bytes=a-b", 10, { kind: "none" }],
    ["items=0-1", 10, { kind: "none" }],
    ["bytes 0-1", 10, { kind: "none" }],
  ])("%j of %i bytes → %j", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe("conditional requests", () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ["*", true],
    ['"abcd"', false],
    ['"x"', false],
  ])("If-None-Match %s matches: %s", (inm, expected) => {
    expect(etagMatches(inm, etag)).toBe(expected);
  });

  it("uses If-Modified-Since only without If-None-Match, at one-second precision", () => {
    const modified = new Date("2025-01-01T00:00:00.500Z");
    expect(isNotModified({ ifModifiedSince: modified.toUTCString() }, etag, modified)).toBe(true);
    expect(isNotModified({ ifModifiedSince: new Date("2024-12-31T23:59:59Z").toUTCString() }, etag, modified)).toBe(false);
    expect(isNotModified({ ifNoneMatch: '"other"', ifModifiedSince: modified.toUTCString() }, etag, modified)).toBe(false);
    expect(isNotModified({ ifModifiedSince: "garbage" }, etag, modified)).toBe(false);
    expect(isNotModified({}, etag, modified)).toBe(false);
  });

  it("lets If-Range through only for the exact strong ETag", () => {
    expect(ifRangeAllows(null, etag)).toBe(true);
    expect(ifRangeAllows('"abc"', etag)).toBe(true);
    expect(ifRangeAllows('W/"abc"', etag)).toBe(false);
    expect(ifRangeAllows("Wed, 01 Jan 2025 00:00:00 GMT", etag)).toBe(false);
  });
});
