/**
 * The user-facing documents (README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md) stand alone in a
 * clone: every relative link points at a file that exists inside the repository, no link or path
 * reaches outside it (such as the `../shared/` folder of the development machine), and absolute
 * links go to public https sites only.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const ROOT = resolve(".");
const files = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Markdown link targets and HTML href/src values, outside code (an example's `<img src>` is no link). */
const linksOf = (text: string) =>
  [...text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "").matchAll(/\]\(([^)\s]+)\)|\b(?:href|src)="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
/** Relative paths written as code (`../x`, `./x`), which a reader follows like links. */
const codePathsOf = (text: string) => [...text.matchAll(/`(\.{1,2}\/[^`\s]*)`/g)].map((m) => m[1]!);
const isAbsolute = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);
/** True when `path`, relative to `file`, stays inside the repository. */
const inside = (file: string, path: string) => {
  const rel = relative(ROOT, resolve(dirname(file), path));
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== "..");
};

/** Why one reference of `file` is wrong, or null. */
function linkProblem(file: string, href: string, kind: "link" | "code"): string | null {
  if (/(^|\/)\.\.\/shared(\/|$)/.test(href) || /^shared\//.test(href)) return `${href}: shared/ is not part of the repository`;
  if (kind === "link" && isAbsolute(href)) {
    if (!/^https:\/\//i.test(href) && !/^mailto:/i.test(href)) return `${href}: absolute links must be https (public sites)`;
    const host = new URL(href).hostname;
    if (/^(localhost|127\.|10\.|192\.168\.|0\.0\.0\.0|\[?::1\]?$)|\.localhost$/i.test(host)) return `${href}: links to a local host`;
    return null;
  }
  if (href.startsWith("#")) return null;
  const path = href.split("#")[0]!;
  if (!inside(file, path)) return `${href}: leaves the repository`;
  if (kind === "link" && !existsSync(join(dirname(file), path))) return `${href}: no such file`;
  return null;
}

describe("documentation links", () => {
  it.each(files)("%s links only to files inside the repository that exist", (file) => {
    const text = readFileSync(file, "utf8");
    const problems = [
      ...linksOf(text).map((href) => linkProblem(file, href, "link")),
      ...codePathsOf(text).map((path) => linkProblem(file, path, "code")),
      ...(text.includes("../shared") ? ["mentions ../shared, which a clone does not have"] : []),
    ].filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it("refuses what a clone would not have: ../shared, paths above the root, local and plain-http sites", () => {
    expect(linkProblem("README.md", "../shared/spec/content-service-api-v1.md", "code")).toMatch(/shared/);
    expect(linkProblem("docs/spec-map.md", "../../shared/DESIGN.md", "link")).toMatch(/shared/);
    expect(linkProblem("README.md", "../other/notes.md", "link")).toMatch(/leaves the repository/);
    expect(linkProblem("docs/content.md", "../../outside.md", "code")).toMatch(/leaves the repository/);
    expect(linkProblem("docs/content.md", "../README.md", "link")).toBeNull();
    expect(linkProblem("docs/content.md", "media.md#media-fields", "link")).toBeNull();
    expect(linkProblem("docs/content.md", "missing.md", "link")).toMatch(/no such file/);
    expect(linkProblem("README.md", "http://example.com/", "link")).toMatch(/https/);
    expect(linkProblem("README.md", "https://localhost:3000/", "link")).toMatch(/local host/);
    expect(linkProblem("README.md", "https://modelcontextprotocol.io", "link")).toBeNull();
  });
});
