/**
 * The entry list query parser (core/entry-query.ts, docs/content.md "Query parameters"), fuzzed
 * per parameter with fast-check: whatever the input (empty strings, stray separators, whitespace,
 * unicode, brackets, very long values, a parameter given twice), the parser returns a query the
 * SQL builder can always turn into valid SQL (a non-empty sort ending with id, no empty names), or
 * throws a 400 naming the parameter; nothing else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError, type ServiceError } from "../../src/core/errors.js";
import { parseCollectionDefinition } from "../../src/core/collections.js";
import {
  encodeCursor,
  MAX_CONTAINS_FILTERS,
  MAX_CONTAINS_LENGTH,
  MAX_LIMIT,
  parseEntryListQuery,
  parseEntryReadQuery,
  type EntryListQuery,
} from "../../src/core/entry-query.js";

const def = parseCollectionDefinition({
  name: "posts",
  fields: [
    { name: "title", type: "string" },
    { name: "body", type: "text" },
    { name: "views", type: "number" },
    { name: "featured", type: "boolean" },
    { name: "at", type: "datetime" },
    { name: "meta", type: "json" },
    { name: "author", type: "relation", collection: "people" },
    { name: "tags", type: "relations", collection: "tags" },
  ],
});

type Outcome = { query: EntryListQuery } | { error: ServiceError };

/** Parses; any throw must be a 400 ServiceError whose message starts with the parameter it names. */
function parse(query: string | [string, string][], allowStatus = false): Outcome {
  try {
    return { query: parseEntryListQuery(def, new URLSearchParams(query), { allowStatus }) };
  } catch (error) {
    expect(isServiceError(error), String(error)).toBe(true);
    const e = error as ServiceError;
    expect(e.status).toBe(400);
    const parameter = e.details?.parameter;
    expect(parameter).toBeTypeOf("string");
    // Unknown names are quoted (and shortened) in the message: compare the quoted start.
    expect(e.message.startsWith(`${parameter}: `) || e.message.startsWith(JSON.stringify(parameter).slice(0, 30)), e.message).toBe(true);
    return { error: e };
  }
}

/** What buildListQuery relies on: every name non-empty, a sort that ends with id, bounded pages. */
function expectBuildable(q: EntryListQuery): void {
  expect(q.sort.length).toBeGreaterThan(0);
  expect(q.sort.at(-1)!.target).toEqual({ kind: "system", key: "id" });
  expect(q.limit >= 0 && q.limit <= MAX_LIMIT).toBe(true);
  for (const name of q.fields ?? []) expect(name).not.toBe("");
  for (const f of q.filters) {
    if (f.op === "in" || f.op === "nin") expect((f.value as unknown[]).length).toBeGreaterThan(0);
    if (f.op === "contains") expect(Array.from(String(f.value)).length).toBeLessThanOrEqual(MAX_CONTAINS_LENGTH);
  }
}

const refusedNaming = (outcome: Outcome, parameter: string) => {
  expect("error" in outcome, JSON.stringify(outcome)).toBe(true);
  if ("error" in outcome) expect(outcome.error.details?.parameter).toBe(parameter);
};

const SORTABLE = ["title", "-title", "views", "-views", "at", "featured", "id", "-_created_at", "_updated_at", "-_published_at", "author"];
const blank = fc.constantFrom("", " ", "  ", "\t", " \u00a0");
/** A list with at least one empty or blank item somewhere: a stray, leading, trailing or doubled comma. */
const strayList = (items: string[]) =>
  fc
    .tuple(fc.array(fc.constantFrom(...items), { minLength: 0, maxLength: 4 }), fc.nat(), blank)
    .map(([names, at, b]) => {
      const out = [...names];
      out.splice(at % (out.length + 1), 0, b);
      return out.join(",");
    })
    // A value that is empty altogether is not a list: it means the parameter was left out.
    .filter((s) => s !== "");
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom(",", " ,", ", ", ",,", "-", "--title", "[", "]", "[]", "title[", "ti,tle", "\u0000", "é", "😀", "title\u0000", "a".repeat(5000)),
);

describe("list parameters refuse empty items and stray separators (400 naming the parameter)", () => {
  it.each(["sort=,", "sort= ,", "sort=,title", "sort=title,", "sort=title,,views", "sort= ", "sort=-", "sort=title,-"])("%s", (q) => {
    refusedNaming(parse(q), "sort");
  });
  it.each(["fields=,", "fields= ", "fields=title,,body", "fields=title,", "expand=,", "expand= ,author", "expand=author,"])("%s", (q) => {
    refusedNaming(parse(q), q.split("=")[0]!);
  });
  it.each(["filter[views][in]=", "filter[views][in]=1,,2", "filter[title][in]=a,", "filter[title][nin]=,a", "filter[tags][in]=", "filter[id][in]=,"])("%s", (q) => {
    refusedNaming(parse(q), q.split("=")[0]!);
  });

  it("sort, fields and expand: any list with an empty or blank item is a 400 naming it", () => {
    const lists: [string, string[]][] = [["sort", SORTABLE], ["fields", ["title", "body", "views"]], ["expand", ["author", "tags"]]];
    const param = fc.constantFrom(...lists).chain(([name, items]) => strayList(items).map((value) => [name, value] as const));
    fc.assert(fc.property(param, ([name, value]) => refusedNaming(parse([[name, value]]), name)), { numRuns: 500 });
  });

  it("in and nin: any list with an empty item is a 400 naming the filter", () => {
    fc.assert(
      fc.property(fc.constantFrom("views", "title", "at", "tags", "id"), fc.constantFrom("in", "nin"), strayList(["1", "2", "a"]), (field, op, value) => {
        const key = `filter[${field}][${op}]`;
        const outcome = parse([[key, value.replace(/\s/g, "")]]);
        refusedNaming(outcome, key);
      }),
    );
  });

  it("blanks around real items are trimmed; an empty value is the same as leaving the parameter out", () => {
    const q = parse("sort= -views , title&fields= title ,body&expand= author");
    expect("query" in q && q.query.sort.map((k) => (k.target.kind === "field" ? k.target.field.name : k.target.key))).toEqual(["views", "title", "id"]);
    expect("query" in q && q.query.fields).toEqual(["title", "body"]);
    for (const empty of ["sort=", "fields=", "expand=", "limit=", "offset=", "after="]) {
      const out = parse(empty);
      expect("query" in out, empty).toBe(true);
      if ("query" in out) expectBuildable(out.query);
    }
  });
});

describe("every parameter, random and edge inputs", () => {
  const key = fc.oneof(
    fc.constantFrom("limit", "offset", "after", "sort", "fields", "expand", "status", "filter", "filter[]", "filter[title", "filters[title]", "Sort", ""),
    fc.constantFrom("title", "body", "views", "featured", "at", "meta", "author", "tags", "id", "_published_at", "nope", "", "__proto__", "tit le", "é").chain((f) =>
      fc.constantFrom(`filter[${f}]`, ...["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "contains", "null", "", "EQ", "between", "eq][x"].map((op) => `filter[${f}][${op}]`)),
    ),
    fc.string().map((s) => `filter${s}`),
    fc.string(),
  );
  const value = fc.oneof(anyText, fc.constantFrom(...SORTABLE), fc.constantFrom("1", "-1", "1.5", "1e400", "0x10", "true", "draft", "2024-01-01", "2024-01-01T00:00:00Z", "99999-01-01"));

  it("any mix of parameters is a buildable query or a 400 naming one (delivery and dashboard)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 8 }), fc.boolean(), (pairs, allowStatus) => {
        const outcome = parse(pairs, allowStatus);
        if ("query" in outcome) expectBuildable(outcome.query);
      }),
      { numRuns: 2000 },
    );
  });

  it("a parameter given twice is a 400 naming it (filters excepted: they are AND-ed)", () => {
    fc.assert(
      fc.property(fc.constantFrom("limit", "offset", "after", "sort", "fields", "expand", "status"), fc.constantFrom("1", "title", "", "draft"), fc.constantFrom("2", "views", "published"), (name, a, b) => {
        refusedNaming(parse([[name, a], [name, b]], true), name);
      }),
    );
  });

  it("limit and offset: plain digits in range, else a 400 naming them", () => {
    fc.assert(
      fc.property(fc.constantFrom("limit", "offset"), fc.oneof(anyText, fc.integer().map(String), fc.constantFrom("+1", "1.0", " 1", "1 ", "01", "１")), (name, v) => {
        const outcome = parse([[name, v]]);
        if ("query" in outcome) expect(v === "" || /^\d+$/.test(v), v).toBe(true);
        else expect(outcome.error.details?.parameter).toBe(name);
      }),
    );
  });

  it("after: anything but an unchanged cursor of this sort is a 400 naming it", () => {
    const cursor = encodeCursor(parseEntryListQuery(def, new URLSearchParams("sort=views")).sort, { views: 3, id: "x" });
    expect("query" in parse([["sort", "views"], ["after", cursor]])).toBe(true);
    fc.assert(
      fc.property(fc.oneof(anyText, fc.nat({ max: cursor.length - 1 }).map((i) => cursor.slice(0, i) + cursor.slice(i + 1))), (v) => {
        fc.pre(v !== "" && v !== cursor);
        refusedNaming(parse([["sort", "views"], ["after", v]]), "after");
      }),
    );
  });

  it("contains: at most MAX_CONTAINS_LENGTH characters and MAX_CONTAINS_FILTERS filters, each refusal naming the limit", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 400 }), fc.constantFrom("title", "body"), (v, field) => {
        const key = `filter[${field}][contains]`;
        const outcome = parse([[key, v]]);
        if (Array.from(v).length <= MAX_CONTAINS_LENGTH && !v.includes("\0")) expect("query" in outcome).toBe(true);
        else if (Array.from(v).length > MAX_CONTAINS_LENGTH) {
          refusedNaming(outcome, key);
          if ("error" in outcome) expect(outcome.error).toMatchObject({ message: expect.stringContaining(`at most ${MAX_CONTAINS_LENGTH} characters`), details: { maximum: MAX_CONTAINS_LENGTH } });
        }
      }),
    );
    const many = Array.from({ length: MAX_CONTAINS_FILTERS + 1 }, (_, i): [string, string] => [`filter[${i % 2 ? "title" : "body"}][contains]`, `x${i}`]);
    expect("query" in parse(many.slice(0, MAX_CONTAINS_FILTERS))).toBe(true);
    const over = parse(many);
    refusedNaming(over, many.at(-1)![0]);
    if ("error" in over) expect(over.error.message).toContain(`at most ${MAX_CONTAINS_FILTERS} contains filters`);
    refusedNaming(parse([["filter[body][contains]", "a".repeat(6000)]]), "filter[body][contains]");
  });

  it("single-entry reads: fields and expand alike, anything else a 400 naming it", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.constantFrom("fields", "expand"), key), value), { maxLength: 4 }), (pairs) => {
        try {
          const q = parseEntryReadQuery(def, new URLSearchParams(pairs));
          for (const name of q.fields ?? []) expect(name).not.toBe("");
        } catch (error) {
          expect(isServiceError(error) && error.status === 400, String(error)).toBe(true);
          expect((error as ServiceError).details?.parameter).toBeTypeOf("string");
        }
      }),
      { numRuns: 500 },
    );
    for (const q of ["fields=,", "fields=title,", "expand= ,"]) {
      expect(() => parseEntryReadQuery(def, new URLSearchParams(q)), q).toThrow(/has an empty item/);
    }
  });
});
