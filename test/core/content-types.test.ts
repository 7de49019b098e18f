/**
 * contentTypeFor: every extension the service has always mapped keeps its exact type (text types
 * with charset=utf-8), paths without an extension stay octet-stream, and common types the old
 * hand-written table lacked are now recognized.
 */
import { describe, expect, it } from "vitest";
import { contentTypeFor, isActiveContentType } from "../../src/core/content-types.js";

const UTF8 = "; charset=utf-8";

/** The table as it was before the lookup moved to a library: none of these may change. */
const PINNED: [string, string][] = [
  ["html", `text/html${UTF8}`],
  ["htm", `text/html${UTF8}`],
  ["css", `text/css${UTF8}`],
  ["js", `text/javascript${UTF8}`],
  ["mjs", `text/javascript${UTF8}`],
  ["json", `application/json${UTF8}`],
  ["map", `application/json${UTF8}`],
  ["webmanifest", `application/manifest+json${UTF8}`],
  ["txt", `text/plain${UTF8}`],
  ["md", `text/markdown${UTF8}`],
  ["csv", `text/csv${UTF8}`],
  ["xml", `application/xml${UTF8}`],
  ["rss", `application/rss+xml${UTF8}`],
  ["atom", `application/atom+xml${UTF8}`],
  ["svg", "image/svg+xml"],
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
  ["avif", "image/avif"],
  ["ico", "image/x-icon"],
  ["bmp", "image/bmp"],
  ["woff", "font/woff"],
  ["woff2", "font/woff2"],
  ["ttf", "font/ttf"],
  ["otf", "font/otf"],
  ["mp4", "video/mp4"],
  ["webm", "video/webm"],
  ["mp3", "audio/mpeg"],
  ["ogg", "audio/ogg"],
  ["wav", "audio/wav"],
  ["pdf", "application/pdf"],
  ["zip", "application/zip"],
  ["wasm", "application/wasm"],
];

describe("contentTypeFor", () => {
  it.each(PINNED)("keeps .%s → %s", (ext, type) => {
    expect(contentTypeFor(`dir/file.${ext}`)).toBe(type);
    expect(contentTypeFor(`FILE.${ext.toUpperCase()}`)).toBe(type);
  });

  it.each([
    ["Makefile", "no extension"],
    ["json", "a bare name that is also an extension"],
    ["dir.v2/file", "a dot only in a directory"],
    ["archive.unknownext", "an unknown extension"],
    ["trailing.", "an empty extension"],
  ])("gives octet-stream for %j (%s)", (path) => {
    expect(contentTypeFor(path)).toBe("application/octet-stream");
  });

  it.each([
    ["heic", "image/heic"],
    ["avif", "image/avif"],
    ["tiff", "image/tiff"],
    ["vtt", `text/vtt${UTF8}`],
    ["ics", `text/calendar${UTF8}`],
    ["yaml", `text/yaml${UTF8}`],
    ["jsonld", `application/ld+json${UTF8}`],
    ["xhtml", `application/xhtml+xml${UTF8}`],
    ["mov", "video/quicktime"],
    ["m4a", "audio/mp4"],
  ])("recognizes .%s as %s", (ext, type) => {
    expect(contentTypeFor(`media/file.${ext}`)).toBe(type);
  });

  it("keeps newly recognized active types under the active-content policy", () => {
    expect(isActiveContentType(contentTypeFor("page.xhtml"))).toBe(true);
    expect(isActiveContentType(contentTypeFor("subtitles.vtt"))).toBe(false);
  });

  it("reads the extension of a dot-file name", () => {
    expect(contentTypeFor(".well-known/security.txt")).toBe(`text/plain${UTF8}`);
  });
});
