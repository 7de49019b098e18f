/**
 * docs/embedding.md shows the example files verbatim: the same files the runtime smoke suite runs.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";

describe("docs/embedding.md", () => {
  const doc = readFileSync("docs/embedding.md", "utf8");
  it.each(readdirSync("examples").filter((f) => f.endsWith(".mjs")))("contains examples/%s verbatim", (file) => {
    expect(doc).toContain("```js\n" + readFileSync(`examples/${file}`, "utf8").trimEnd() + "\n```");
  });
});
