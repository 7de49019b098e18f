/**
 * The entry list's URL state (dashboard/src/entries/list-query.ts): what the URL holds reads back
 * the same, malformed parts are dropped, and the API query it builds is what the server parses —
 * checked against core/entry-query.ts itself, so the two cannot drift apart.
 */
import { describe, expect, it } from "vitest";
import { apiQuery, filterTargets, fromQuery, opsOf, toQuery, type ListState } from "../../dashboard/src/entries/list-query.js";
import { parseEntryListQuery } from "../../src/core/entry-query.js";
import type { FieldDefinition } from "../../src/core/collections.js";

const fields: FieldDefinition[] = [
  { name: "title", type: "string" },
  { name: "views", type: "number" },
  { name: "featured", type: "boolean" },
  { name: "when", type: "datetime" },
  { name: "meta", type: "json" },
];
const def = { name: "articles", fields };
const state = (over: Partial<ListState>): ListState => ({ filters: [], q: "", searchField: "", sort: "-_created_at", status: "", page: 1, ...over });

describe("entry list URL state", () => {
  it("round-trips filters (values with dots too), search, sort, status and page", () => {
    const s = state({
      filters: [
        { field: "views", op: "gte", value: "2.5" },
        { field: "title", op: "contains", value: "v1.2" },
        { field: "_created_at", op: "lt", value: "2026-01-01T00:00:00.000Z" },
      ],
      q: "news",
      searchField: "title",
      sort: "-views",
      status: "draft",
      page: 3,
    });
    const query = toQuery(s);
    expect(query).toEqual({
      f: ["views.gte.2.5", "title.contains.v1.2", "_created_at.lt.2026-01-01T00:00:00.000Z"],
      q: "news",
      qf: "title",
      sort: "-views",
      status: "draft",
      page: "3",
    });
    expect(fromQuery(query as Record<string, string | string[]>)).toEqual(s);
  });

  it("leaves defaults and unfinished rows out of the URL, and drops what it cannot read", () => {
    expect(toQuery(state({ filters: [{ field: "views", op: "eq", value: "" }, { field: "", op: "eq", value: "x" }] }))).toEqual({});
    expect(fromQuery({ f: ["views", "views.bogus.1", "views.eq.1"], status: "archived", page: "-2" })).toEqual(
      state({ filters: [{ field: "views", op: "eq", value: "1" }] }),
    );
  });

  it("builds an API query the server parses as meant: filters AND-ed, the search as one more contains", () => {
    const s = state({
      filters: [
        { field: "views", op: "gte", value: "500" },
        { field: "title", op: "contains", value: "9" },
        { field: "featured", op: "eq", value: "true" },
        { field: "meta", op: "null", value: "false" },
      ],
      q: "Article",
      searchField: "title",
      sort: "-views",
      status: "published",
      page: 2,
    });
    const query = apiQuery(s, 25);
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) params.append(k, String(one));
    const parsed = parseEntryListQuery(def, params, { allowStatus: true });
    expect(parsed).toMatchObject({ limit: 25, offset: 25, status: "published" });
    expect(parsed.filters.map((f) => [f.target.kind === "field" ? f.target.field.name : f.target.key, f.op, f.value])).toEqual([
      ["views", "gte", 500],
      ["title", "contains", "9"],
      ["title", "contains", "Article"],
      ["featured", "eq", true],
      ["meta", "null", false],
    ]);
  });

  it("offers exactly the operators the server takes per field type and system key", () => {
    const targets = Object.fromEntries(filterTargets(fields).map((t) => [t.name, t]));
    for (const t of Object.values(targets)) {
      for (const op of ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "contains", "null"] as const) {
        const value = op === "null" ? "true" : t.input === "number" ? "1" : t.input === "boolean" ? "true" : t.input === "datetime" ? "2026-01-01T00:00:00Z" : "a";
        const params = new URLSearchParams([[`filter[${t.name}][${op}]`, value]]);
        let accepted = true;
        try {
          parseEntryListQuery(def, params);
        } catch {
          accepted = false;
        }
        expect(accepted, `${t.name} ${op}`).toBe(opsOf(t).includes(op));
      }
    }
    expect(targets.views!.input).toBe("number");
    expect(targets._published_at!.input).toBe("datetime");
    expect(opsOf(targets.meta)).toEqual(["null"]);
  });
});
