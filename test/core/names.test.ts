/**
 * The naming rules (core/names.ts) that the server's schemas and the dashboard's inputs share:
 * each pattern compiles under the `v` flag (what browsers use for an input's `pattern`) and
 * agrees with the `u` flag; each rule accepts and refuses what the server does, with the very
 * message the server sends.
 */
import { describe, expect, it } from "vitest";
import { parseCollectionDefinition } from "../../src/core/collections.js";
import { parseFormDefinition } from "../../src/core/forms.js";
import { NAME_RULES, nameProblem, nameRegExp, type NameRule } from "../../src/core/names.js";
import { parseRule } from "../../src/core/rules.js";
import { validateSlug } from "../../src/core/tenancy.js";

const refusal = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

// Each rule with names it takes and refuses, and the server's own check of one name.
const CASES: { rule: keyof typeof NAME_RULES; good: string[]; bad: string[]; server: (name: string) => string | undefined }[] = [
  {
    rule: "collection",
    good: ["posts", "my_posts", "p2", "a".repeat(63)],
    bad: ["my-posts", "Posts", "2posts", "_posts", "a".repeat(64), "media", "forms", "accounts", "pösts"],
    server: (name) => refusal(() => parseCollectionDefinition({ name }))?.replace(/^name: /, ""),
  },
  {
    rule: "collectionField",
    good: ["title", "Title2", "body_text", "constructor"],
    bad: ["my-field", "2x", "_x", "__proto__", "id", "a b", "a".repeat(64)],
    server: (name) => refusal(() => parseCollectionDefinition({ name: "c", fields: [{ name, type: "string" }] }))?.replace(/^fields\.0\.name: /, ""),
  },
  {
    rule: "formSlug",
    good: ["contact", "contact-us", "2024", "a".repeat(64)],
    bad: ["-contact", "contact-", "Contact", "contact_us", "a".repeat(65)],
    server: (slug) => refusal(() => parseFormDefinition({ slug, name: "x" }))?.replace(/^slug: /, ""),
  },
  {
    rule: "formField",
    good: ["email", "first-name", "first_name"],
    bad: ["_gotcha", "1st", "a b", "-x"],
    server: (name) => refusal(() => parseFormDefinition({ slug: "s", name: "x", fields: [{ name, type: "string" }] }))?.replace(/^fields\.0\.name: /, ""),
  },
  {
    rule: "honeypot",
    good: ["_gotcha", "website", "hp-1"],
    bad: ["__proto__", "1x", "a b", "-x"],
    server: (honeypot) => refusal(() => parseFormDefinition({ slug: "s", name: "x", honeypot }))?.replace(/^honeypot: /, ""),
  },
  {
    rule: "workspace",
    good: ["demo", "my-site", "a1"],
    bad: ["Demo", "1demo", "my_site", "-x"],
    server: (slug) => refusal(() => validateSlug(slug, "slug"))?.replace(/^slug /, ""),
  },
  {
    rule: "ruleField",
    good: ["plan", "_plan", "team-id", "email"],
    bad: ["1plan", "a b", "-x", "a".repeat(65)],
    server: (field) => refusal(() => parseRule({ name: "r", condition: { account: { field, eq: 1 } } }))?.replace(/^condition\.account\.field: /, ""),
  },
];

describe("naming rules", () => {
  it.each(CASES)("$rule: the pattern compiles with the v flag, as an input's pattern attribute does", ({ rule }) => {
    const { pattern } = NAME_RULES[rule] as NameRule;
    // Chromium compiles `^(?:pattern)$` with `v`; a pattern that throws here checks nothing in the browser.
    expect(() => new RegExp(`^(?:${pattern})$`, "v")).not.toThrow();
  });

  it.each(CASES)("$rule: browser (v) and server (u) accept the same names", ({ rule, good, bad }) => {
    const r = NAME_RULES[rule] as NameRule;
    const browser = new RegExp(`^(?:${r.pattern})$`, "v");
    for (const name of [...good, ...bad]) expect(browser.test(name), name).toBe(nameRegExp(r).test(name));
  });

  it.each(CASES)("$rule: takes and refuses what the server does, with the server's message", ({ rule, good, bad, server }) => {
    const r = NAME_RULES[rule] as NameRule;
    for (const name of good) {
      expect(nameProblem(r, name), name).toBeUndefined();
      expect(server(name), name).toBeUndefined();
    }
    for (const name of bad) {
      const problem = nameProblem(r, name);
      expect(problem, name).toBeDefined();
      expect(server(name), name).toBe(problem);
    }
  });

  it("hints say what the pattern means: no dash for collections, dashes for form slugs", () => {
    expect(NAME_RULES.collection.hint).not.toMatch(/dash/);
    expect(nameProblem(NAME_RULES.collection, "my-posts")).toBe("must be 1-63 lowercase letters, digits or underscores, starting with a letter");
    expect(NAME_RULES.formSlug.hint).toMatch(/dashes/);
    expect(nameProblem(NAME_RULES.collection, "media")).toBe("is reserved (a path under /api/v1/)");
  });
});
