/**
 * Pure content logic: the lifecycle → events table of spec section 3, definition validation,
 * entry value schemas, schema-change planning, event projection (spec 2.5).
 */
import { describe, expect, it } from "vitest";
import { lifecycleEvents, type EntryStatus } from "../../src/core/events.js";
import { parseCollectionDefinition, planSchemaChange, toEventEntry, type CollectionDefinition } from "../../src/core/collections.js";
import { parseEntryInput, storedValueFits } from "../../src/core/entry-schema.js";
import { parseEntryListQuery } from "../../src/core/entry-query.js";

describe("lifecycleEvents (spec 3)", () => {
  it.each<[EntryStatus | null, EntryStatus | null, string[]]>([
    [null, "draft", ["content.created"]],
    [null, "published", ["content.created", "content.published"]],
    ["draft", "published", ["content.published"]],
    ["published", "draft", ["content.unpublished"]],
    ["draft", "draft", ["content.updated"]],
    ["published", "published", ["content.updated"]],
    ["draft", null, ["content.deleted"]],
    ["published", null, ["content.deleted"]],
  ])("%s → %s fires %j", (before, after, events) => {
    expect(lifecycleEvents(before, after)).toEqual(events);
  });
});

const def: CollectionDefinition = parseCollectionDefinition({
  name: "posts",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "views", type: "number" },
    { name: "tags", type: "relations", collection: "tags" },
    { name: "author", type: "relation", collection: "authors" },
  ],
});

describe("entry values", () => {
  it("validates a create and splits _status", () => {
    expect(parseEntryInput(def, { title: "a", views: null, _status: "published" }, "create")).toEqual({ values: { title: "a", views: null }, status: "published" });
    expect(() => parseEntryInput(def, { views: 1 }, "create")).toThrow("title: is required");
    expect(parseEntryInput(def, { views: 2 }, "patch").values).toEqual({ views: 2 });
    expect(() => parseEntryInput(def, { title: null }, "patch")).toThrow(/^title: /);
    expect(() => parseEntryInput(def, { tags: ["x"] }, "patch")).toThrow(/^tags\.0: must contain entry ids/);
    // A misspelt name is reported as itself, not as the required field it was meant to be.
    expect(() => parseEntryInput(def, { titel: "a" }, "create")).toThrow(/^titel: unknown field of collection/);
  });

  it("validates against the definition it is given, whichever was parsed before", () => {
    const v1 = parseCollectionDefinition({ name: "posts", fields: [{ name: "title", type: "string" }] });
    const v2 = parseCollectionDefinition({ name: "posts", fields: [{ name: "title", type: "number", required: true }] });
    for (let round = 0; round < 2; round++) {
      expect(parseEntryInput(v1, { title: "a" }, "create").values).toEqual({ title: "a" });
      expect(parseEntryInput(v1, {}, "create").values).toEqual({});
      expect(() => parseEntryInput(v2, { title: "a" }, "create")).toThrow("title: must be a finite number");
      expect(() => parseEntryInput(v2, {}, "create")).toThrow("title: is required");
      expect(parseEntryInput(v2, {}, "patch").values).toEqual({});
      const parsed = parseEntryInput(v1, { title: "b" }, "patch").values;
      parsed.title = "changed";
      expect(parseEntryInput(v1, { title: "b" }, "patch").values).toEqual({ title: "b" });
    }
  });

  it("says whether stored values fit a field", () => {
    expect(storedValueFits({ name: "n", type: "number" }, "3")).toEqual({ present: true, valid: false });
    expect(storedValueFits({ name: "n", type: "text" }, "3")).toEqual({ present: true, valid: true });
    expect(storedValueFits({ name: "n", type: "relations", collection: "x" }, [])).toEqual({ present: false, valid: true });
  });

  it("a media value must be an asset id (a UUID); whether the asset exists is the service's check", () => {
    const media = parseCollectionDefinition({ name: "pages", fields: [{ name: "cover", type: "media" }] });
    const id = "0b6f9d2e-6c1a-4f4e-9a57-3d2b1c0e8f11";
    expect(parseEntryInput(media, { cover: id }, "create").values).toEqual({ cover: id });
    for (const bad of ["cover.jpg", "", "0b6f9d2e", `${id}x`]) expect(() => parseEntryInput(media, { cover: bad }, "patch"), bad).toThrow(/^cover: must be a media id/);
    expect(storedValueFits({ name: "cover", type: "media" }, "cover.jpg")).toEqual({ present: true, valid: false });
  });
});

describe("schema change planning", () => {
  const with_ = (fields: object[]) => parseCollectionDefinition({ name: "posts", fields });
  it("removals are free; new required fields, newly required fields and type changes are checked", () => {
    const plan = planSchemaChange(def, with_([{ name: "title", type: "text", required: true }, { name: "views", type: "number", required: true }, { name: "slug", type: "string", required: true }, { name: "extra", type: "string" }]));
    expect(plan.removed.map((f) => f.name)).toEqual(["tags", "author"]);
    expect(plan.checked.map((c) => [c.field.name, c.requiredNow, c.typeChanged])).toEqual([
      ["title", true, true],
      ["views", true, false],
      ["slug", true, false],
    ]);
    expect(planSchemaChange(def, def)).toEqual({ removed: [], checked: [] });
  });
});

describe("event projection (spec 2.5)", () => {
  it("drops many-to-many keys, keeps one-to-many", () => {
    const entry = { id: "1", title: "t", tags: ["a"], author: "b", _status: "draft" as const, _published_at: null, _created_by: "u", _created_at: "c", _updated_at: "u" };
    const projected = toEventEntry(def, entry);
    expect(Object.hasOwn(projected, "tags")).toBe(false);
    expect(projected.author).toBe("b");
    expect(entry.tags).toEqual(["a"]);
  });
});

describe("list query parsing", () => {
  it("defaults, refuses over-max limits and validates", () => {
    const q = parseEntryListQuery(def, new URLSearchParams("limit=100&filter[views]=2.5&sort=-views"));
    expect(q.limit).toBe(100);
    expect(q.offset).toBe(0);
    expect(q.filters).toEqual([{ target: { kind: "field", field: def.fields[1] }, op: "eq", value: 2.5 }]);
    const id = { target: { kind: "system", key: "id" }, desc: true };
    expect(q.sort).toEqual([{ target: { kind: "field", field: def.fields[1] }, desc: true }, id]);
    expect(parseEntryListQuery(def, new URLSearchParams("")).sort).toEqual([{ target: { kind: "system", key: "_created_at" }, desc: true }, id]);
    expect(() => parseEntryListQuery(def, new URLSearchParams("limit=1000"))).toThrow("limit: must be an integer from 0 to 100");
    expect(() => parseEntryListQuery(def, new URLSearchParams("status=draft"))).toThrow(/"status" is not a query parameter/);
    expect(parseEntryListQuery(def, new URLSearchParams("status=draft"), { allowStatus: true }).status).toBe("draft");
    expect(() => parseEntryListQuery(def, new URLSearchParams("sort=__proto__"))).toThrow(/not a field/);
  });
});
