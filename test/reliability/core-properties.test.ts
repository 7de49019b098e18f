/**
 * Property tests (fast-check) for the core parsers and policies not covered in test/core, so that
 * no input makes one fail in an unplanned way: tenancy host normalisation, entry list queries,
 * collection definitions and the lifecycle → events table. Each parser either returns a value
 * within its contract or throws a 400 ServiceError — never anything else, whatever the input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../../src/core/errors.js";
import { normalizeHost, tryNormalizeHost } from "../../src/core/tenancy.js";
import { MAX_LIMIT, parseEntryListQuery, SYSTEM_SORT_COLUMNS } from "../../src/core/entry-query.js";
import { FIELD_TYPES, parseCollectionDefinition, RESERVED_COLLECTION_NAMES, SYSTEM_FIELDS, type CollectionDefinition } from "../../src/core/collections.js";
import { lifecycleEvents, type EntryStatus } from "../../src/core/events.js";

/** Runs fn; a thrown error must be a 400 ServiceError. Returns the value or undefined. */
function only400<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (!isServiceError(error) || error.status !== 400) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    return undefined;
  }
}

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join("."));
const randomCase = (s: string, flips: boolean[]) => [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join("");
const HOST_RE = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

describe("normalizeHost (spec 1: the hostname is the only scope)", () => {
  it("any case, a port and a trailing dot normalise to the same host", () => {
    fc.assert(
      fc.property(hostname, fc.array(fc.boolean(), { minLength: 1 }), fc.option(fc.integer({ min: 1, max: 65535 })), fc.boolean(), (host, flips, port, dot) => {
        const value = `${randomCase(host, flips)}${dot ? "." : ""}${port === null ? "" : `:${port}`}`;
        expect(normalizeHost(value)).toBe(host);
        expect(normalizeHost(` ${value} `)).toBe(host);
      }),
    );
  });

  it("is idempotent, and any string either normalises to a valid lower-case host or is a 400", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), hostname.map((h) => `${h}:x/../${h}`)), (value) => {
        const host = only400(() => normalizeHost(value));
        expect(tryNormalizeHost(value)).toBe(host);
        if (host === undefined) return;
        expect(host).toMatch(HOST_RE);
        expect(normalizeHost(host)).toBe(host);
      }),
    );
  });

  it("never lets userinfo, paths, NUL or a second host through", () => {
    for (const bad of ["a@demo.localhost", "demo.localhost/x", "demo.localhost\u0000.evil", "demo localhost", "demo.localhost,evil.com", "..", "-a.b", "a..b", "[::1", "ünïcode.test"]) {
      expect(tryNormalizeHost(bad), bad).toBeUndefined();
    }
    expect(normalizeHost("[::1]:8080")).toBe("[::1]");
  });
});

const def: CollectionDefinition = parseCollectionDefinition({
  name: "posts",
  fields: [
    { name: "title", type: "string" },
    { name: "views", type: "number" },
    { name: "featured", type: "boolean" },
    { name: "at", type: "datetime" },
    { name: "meta", type: "json" },
    { name: "tags", type: "relations", collection: "tags" },
  ],
});
const names = ["title", "views", "featured", "at", "meta", "tags", "id", "_created_at", "nope", "__proto__", "constructor", "x'; DROP TABLE entries; --", ""];
const values = fc.oneof(fc.constantFrom("1", "-1", "true", "false", "2025-01-01", "abc", "", "1e3", "NaN", "999999999999", "0"), fc.string());
const paramKey = fc.oneof(
  fc.constantFrom("limit", "offset", "sort", "status", "filter", "filter[]", "other", "fields", "expand", "after"),
  fc.constantFrom(...names).chain((n) => fc.constantFrom(...["eq", "in", "nin", "gte", "contains", "null", "between", ""].map((op) => `filter[${n}][${op}]`))),
  fc.constantFrom(...names).map((n) => `filter[${n}]`),
  fc.string().map((s) => `filter${s}`),
);
const paramValue = fc.oneof(values, fc.constantFrom(...names).chain((n) => fc.constantFrom(n, `-${n}`)));

describe("parseEntryListQuery (docs/content.md)", () => {
  it("any query is a bounded, fully validated list query or a 400 naming the parameter", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(paramKey, paramValue), { maxLength: 8 }), fc.boolean(), (pairs, allowStatus) => {
        const params = new URLSearchParams(pairs);
        let q;
        try {
          q = parseEntryListQuery(def, params, { allowStatus });
        } catch (error) {
          expect(isServiceError(error) && error.status === 400, String(error)).toBe(true);
          expect((error as { details?: { parameter?: unknown } }).details?.parameter).toBeTypeOf("string");
          return;
        }
        expect(Number.isInteger(q.limit) && q.limit >= 0 && q.limit <= MAX_LIMIT).toBe(true);
        expect(Number.isInteger(q.offset) && q.offset >= 0).toBe(true);
        for (const k of q.sort) {
          if (k.target.kind === "system") expect(Object.hasOwn(SYSTEM_SORT_COLUMNS, k.target.key)).toBe(true);
          else {
            expect(def.fields).toContain(k.target.field);
            expect(["json", "relations"]).not.toContain(k.target.field.type);
          }
        }
        expect(q.sort.at(-1)?.target).toEqual({ kind: "system", key: "id" });
        for (const f of q.filters) {
          if (f.target.kind === "system") continue;
          expect(def.fields).toContain(f.target.field);
          if (f.target.field.type === "json") expect(f.op).toBe("null");
          for (const v of [f.value].flat()) {
            if (f.op === "null") expect(typeof v).toBe("boolean");
            else if (f.target.field.type === "number") expect(Number.isFinite(v)).toBe(true);
            else if (f.target.field.type === "boolean") expect(typeof v).toBe("boolean");
          }
        }
        if (!allowStatus) expect(q.status).toBeUndefined();
        else if (q.status !== undefined) expect(["draft", "published"]).toContain(q.status);
      }),
      { numRuns: 500 },
    );
  });
});

const fieldArb = fc.record(
  {
    name: fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,10}$/), fc.constantFrom(...SYSTEM_FIELDS, "_x", "1a", "a-b", "", "a".repeat(64))),
    type: fc.oneof(fc.constantFrom(...FIELD_TYPES), fc.constantFrom("float", "", "relation ")),
    required: fc.oneof(fc.boolean(), fc.constant("yes")),
    collection: fc.constantFrom("tags", "Bad Name"),
  },
  { requiredKeys: ["name", "type"] },
);
const definitionArb = fc.record(
  {
    name: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), fc.constantFrom(...RESERVED_COLLECTION_NAMES, "Posts", "x'; --", "../etc", "", "a".repeat(64))),
    fields: fc.array(fieldArb, { maxLength: 5 }),
    access: fc.constantFrom("public", "private", "gated", "open"),
    rule: fc.constantFrom(null, "r1", ""),
    extra: fc.constant(1),
  },
  { requiredKeys: [] },
);

describe("parseCollectionDefinition (DESIGN §4.2)", () => {
  it("accepts exactly well-formed definitions: valid identifiers, no system or duplicate field, rule only when gated", () => {
    fc.assert(
      fc.property(fc.oneof(definitionArb, fc.anything()), (input) => {
        const parsed = only400(() => parseCollectionDefinition(input));
        if (!parsed) return;
        expect(parsed.name).toMatch(/^[a-z][a-z0-9_]{0,62}$/);
        expect(RESERVED_COLLECTION_NAMES).not.toContain(parsed.name);
        expect(["public", "private", "gated"]).toContain(parsed.access);
        if (parsed.rule !== null) expect(parsed.access).toBe("gated");
        const fieldNames = parsed.fields.map((f) => f.name);
        expect(new Set(fieldNames).size).toBe(fieldNames.length);
        for (const f of parsed.fields) {
          expect(f.name).toMatch(/^[A-Za-z][A-Za-z0-9_]{0,62}$/);
          expect(f.name).not.toBe("id");
          expect(FIELD_TYPES).toContain(f.type);
          expect(Boolean(f.collection)).toBe(f.type === "relation" || f.type === "relations");
        }
        // Parsing is a fixpoint: a parsed definition parses to itself.
        expect(parseCollectionDefinition(parsed)).toEqual(parsed);
      }),
      { numRuns: 500 },
    );
  });
});

/** Spec 3, transcribed row by row as an independent reference. */
function reference(before: EntryStatus | null, after: EntryStatus | null): string[] {
  if (before === null && after === "draft") return ["content.created"];
  if (before === null && after === "published") return ["content.created", "content.published"];
  if (before === "draft" && after === "published") return ["content.published"];
  if (before === "published" && after === "draft") return ["content.unpublished"];
  if (before !== null && before === after) return ["content.updated"];
  if (before !== null && after === null) return ["content.deleted"];
  return [];
}

describe("lifecycleEvents (spec 3) against a reference", () => {
  const states: (EntryStatus | null)[] = [null, "draft", "published"];
  it.each(states.flatMap((b) => states.map((a) => [b, a] as const)))("%s → %s", (before, after) => {
    expect(lifecycleEvents(before, after)).toEqual(reference(before, after));
  });

  it("over any life of an entry: one created, at most one deleted (last), publish/unpublish alternate", () => {
    const status = fc.constantFrom<EntryStatus>("draft", "published");
    fc.assert(
      fc.property(status, fc.array(status, { maxLength: 20 }), fc.boolean(), (first, saves, deleted) => {
        const path: (EntryStatus | null)[] = [null, first, ...saves, ...(deleted ? [null] : [])];
        const events = path.slice(1).flatMap((after, i) => lifecycleEvents(path[i]!, after));
        expect(events.filter((e) => e === "content.created")).toHaveLength(1);
        expect(events[0]).toBe("content.created");
        expect(events.filter((e) => e === "content.deleted")).toHaveLength(deleted ? 1 : 0);
        if (deleted) expect(events.at(-1)).toBe("content.deleted");
        const flips = events.filter((e) => e === "content.published" || e === "content.unpublished");
        flips.forEach((e, i) => expect(e).toBe(i % 2 === 0 ? "content.published" : "content.unpublished"));
        expect(events.filter((e) => e === "content.updated")).toHaveLength(path.slice(1).filter((a, i) => a !== null && a === path[i]).length);
      }),
    );
  });
});
