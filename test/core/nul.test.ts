/**
 * The NUL rule (src/core/nul.ts) and the validators that use it for callers that bypass the HTTP
 * body parser (MCP, the CLI, embedders): entries and form submissions.
 */
import { describe, expect, it } from "vitest";
import type { CollectionDefinition } from "../../src/core/collections.js";
import { parseEntryInput } from "../../src/core/entry-schema.js";
import { validateSubmission, validateSubmissionPatch } from "../../src/core/form-values.js";
import { findNul, refuseNul } from "../../src/core/nul.js";

const NUL = "\u0000";
const MESSAGE = "must not contain the NUL character (U+0000)";

describe("findNul", () => {
  it.each([
    ["a string", `a${NUL}`, []],
    ["an array item", ["ok", `x${NUL}`], [1]],
    ["a nested value", { a: { b: [{ c: `${NUL}` }] } }, ["a", "b", 0, "c"]],
    ["an object key", { a: { [`k${NUL}`]: 1 } }, ["a", `k${NUL}`]],
  ])("finds NUL in %s", (_what, value, path) => {
    expect(findNul(value)).toEqual(path);
  });

  it.each([["text", "no nul here"], ["the escape as text", "\\u0000"], ["numbers and null", [1, null, true, { a: 2 }]]])("finds nothing in %s", (_what, value) => {
    expect(findNul(value)).toBeUndefined();
  });
});

describe("refuseNul", () => {
  it("throws 400 naming the path, and the top-level field in details", () => {
    expect(() => refuseNul({ meta: { tags: ["a", `b${NUL}`] } })).toThrow(`meta.tags.1: ${MESSAGE}`);
    const caught = (() => {
      try {
        refuseNul({ meta: { tags: [`${NUL}`] } });
      } catch (error) {
        return error;
      }
    })();
    expect(caught).toMatchObject({ status: 400, details: { field: "meta" } });
    expect(() => refuseNul(`x${NUL}`)).toThrow(`body: ${MESSAGE}`);
    expect(() => refuseNul({ [`a${NUL}`]: 1 })).toThrow(`a\\u0000: ${MESSAGE}`);
    expect(() => refuseNul({ fine: ["yes"] })).not.toThrow();
  });
});

describe("validators refuse NUL for every caller", () => {
  const posts: CollectionDefinition = {
    name: "posts",
    access: "public",
    fields: [
      { name: "title", type: "string" },
      { name: "body", type: "text" },
      { name: "meta", type: "json" },
    ],
  } as CollectionDefinition;

  it.each([
    [{ title: `a${NUL}` }, `title: ${MESSAGE}`],
    [{ body: `${NUL}` }, `body: ${MESSAGE}`],
    [{ meta: { list: [{ s: `${NUL}` }] } }, `meta.list.0.s: ${MESSAGE}`],
  ])("parseEntryInput(%j) throws %s", (values, message) => {
    expect(() => parseEntryInput(posts, values, "create")).toThrow(message);
    expect(() => parseEntryInput(posts, values, "patch")).toThrow(message);
  });

  it("form submissions and submission edits", () => {
    const fields = [{ name: "message", type: "text" as const }, { name: "email", type: "email" as const }];
    expect(() => validateSubmission(fields, { message: `hi${NUL}` })).toThrow(`message: ${MESSAGE}`);
    expect(() => validateSubmission(fields, { email: `a${NUL}@example.com` })).toThrow(`email: ${MESSAGE}`);
    expect(() => validateSubmissionPatch(fields, { message: `${NUL}` })).toThrow(`message: ${MESSAGE}`);
  });
});
