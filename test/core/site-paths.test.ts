/**
 * Site paths: archive entries normalised or refused (naming the entry); request paths decoded,
 * traversal refused, candidates for index.html and clean URLs; filenames and content types.
 */
import { describe, expect, it } from "vitest";
import { archiveEntryPath, requestCandidates } from "../../src/core/site-paths.js";
import { contentDisposition, sanitizeFilename } from "../../src/core/filenames.js";
import { contentTypeFor, isActiveContentType, normalizeContentType } from "../../src/core/content-types.js";

describe("archiveEntryPath", () => {
  it.each([
    ["index.html", "index.html"],
    ["./index.html", "index.html"],
    ["./", ""],
    ["blog//post/./index.html", "blog/post/index.html"],
    ["dir/", "dir"],
    ["..foo/bar..", "..foo/bar.."],
    ["ünïcödé/ファイル.html", "ünïcödé/ファイル.html"],
  ])("%j → %j", (raw, expected) => {
    expect(archiveEntryPath(raw)).toBe(expected);
  });

  it.each(["../x", "a/../../x", "a/..", "/etc/passwd", "C:/x", "c:x", "a\\b", "a\u0000b", "x\n", `${"a".repeat(256)}/b`, "a/".repeat(600)])(
    "refuses %j with 400 naming it",
    (raw) => {
      expect(() => archiveEntryPath(raw)).toThrowError(expect.objectContaining({ status: 400, details: { entry: raw } }));
    },
  );
});

describe("requestCandidates", () => {
  it.each([
    ["/", ["index.html"]],
    ["", ["index.html"]],
    ["/about", ["about", "about.html", "about/index.html"]],
    ["/blog/", ["blog/index.html"]],
    ["//blog//", ["blog/index.html"]],
    ["/caf%C3%A9", ["café", "café.html", "café/index.html"]],
    ["/a%20b.css", ["a b.css", "a b.css.html", "a b.css/index.html"]],
    ["/.well-known/security.txt", [".well-known/security.txt", ".well-known/security.txt.html", ".well-known/security.txt/index.html"]],
    ["/.env", []],
    ["/.git/config", []],
    ["/a/.hidden", []],
  ])("%j → %j", (path, expected) => {
    expect(requestCandidates(path)).toEqual(expected);
  });

  it.each(["/..", "/a/../b", "/%2e%2e/x", "/.%2E/x", "/a%2fb", "/a%5cb", "/a%00", "/%E0%A4%A", "/%2e"])("refuses %j", (path) => {
    expect(requestCandidates(path)).toBeUndefined();
  });
});

describe("filenames and content types", () => {
  it("caps long names and keeps a short extension", () => {
    const name = sanitizeFilename(`${"é".repeat(300)}.png`);
    expect([...name].length).toBe(200);
    expect(name.endsWith(".png")).toBe(true);
    expect(sanitizeFilename("/")).toBe("file");
    expect(sanitizeFilename("a/b/")).toBe("file");
  });

  it("escapes Content-Disposition safely", () => {
    expect(contentDisposition("attachment", "a\"b'(c).txt")).toBe(`attachment; filename="a_b'(c).txt"; filename*=UTF-8''a%22b%27%28c%29.txt`);
  });

  it.each([
    ["image/PNG", "image/png"],
    ["text/plain; charset=UTF-8; x=y", "text/plain; charset=utf-8"],
    ["application/json; charset=utf-8", "application/json"],
    ["text/html\r\nx-evil: 1", undefined],
    ["nonsense", undefined],
    ["a/b/c", undefined],
    ["", undefined],
  ])("normalizeContentType(%j) → %j", (input, expected) => {
    expect(normalizeContentType(input)).toBe(expected);
  });

  it("maps extensions and flags executable types", () => {
    expect(contentTypeFor("a/B.CSS")).toBe("text/css; charset=utf-8");
    expect(contentTypeFor("Makefile")).toBe("application/octet-stream");
    expect(contentTypeFor("dir.v2/file")).toBe("application/octet-stream");
    for (const t of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/javascript", "application/rss+xml", "TEXT/HTML; charset=utf-8"]) {
      expect([t, isActiveContentType(t)]).toEqual([t, true]);
    }
    for (const t of ["image/png", "text/plain", "application/pdf", "video/mp4", "text/css"]) expect([t, isActiveContentType(t)]).toEqual([t, false]);
  });
});
