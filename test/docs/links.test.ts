/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file that exists.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const files = ["README.md", "CONTRIBUTING.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("documentation links", () => {
  it.each(files)("%s links only to files that exist", (file) => {
    const text = readFileSync(file, "utf8");
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith("#"))
      .map((href) => href.split("#")[0]!)
      .filter((href) => href && !existsSync(join(dirname(file), href)));
    expect(broken).toEqual([]);
  });
});
