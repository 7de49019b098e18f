// An entry list's state as it lives in the URL (so reload and a shared link restore it), and the
// API query it asks for. The URL stays readable:
//   ?f=views.gte.500&f=title.contains.9&q=news&qf=title&sort=-views&status=draft&page=2
// `f` is field.operator.value (field names never hold a dot; the value may). The operators per
// field type come from the server's own module, so the builder offers exactly what the API takes.
// Imports carry .js: this module also runs under Node (test/dashboard/list-query.test.ts).
import type { LocationQuery, LocationQueryRaw } from "vue-router";
import { FILTER_OPS, SYSTEM_FILTER_KEYS, filterOps, systemFilterKind, type FilterOp, type SystemFilterKey } from "../../../src/core/filter-ops.js";

export { MAX_CONTAINS_FILTERS, MAX_CONTAINS_LENGTH, MAX_FILTERS, MAX_IN_VALUES } from "../../../src/core/filter-ops.js";
export type { FilterOp };

/** What the list needs of a field (a collection field of the API, types.ts Field). */
export interface Field {
  name: string;
  type: string;
}

export interface FilterRow {
  field: string;
  op: FilterOp;
  /** As the API takes it: ISO 8601 for dates, true/false for booleans and `null`, a,b,c for in/nin. */
  value: string;
}

export interface ListState {
  filters: FilterRow[];
  /** Search text, sent as `contains` on `searchField`. */
  q: string;
  searchField: string;
  sort: string;
  status: "" | "draft" | "published";
  /** 1-based. */
  page: number;
}

export const DEFAULT_SORT = "-_created_at";

/** What a filter can target: a system key or a field, with the value type its input takes. */
export interface Target {
  name: string;
  label: string;
  /** The OPS_BY_TYPE kind. */
  kind: string;
  /** How its value is typed in: text, number, datetime or boolean. */
  input: "text" | "number" | "datetime" | "boolean";
}

const SYSTEM_LABELS: Record<SystemFilterKey, string> = { id: "id", _created_at: "created", _updated_at: "updated", _published_at: "published" };

/** Every field and system key a list can filter on, with its operators (json only by null). */
export function filterTargets(fields: readonly Field[]): Target[] {
  const own: Target[] = fields.map((f) => ({
    name: f.name,
    label: f.name,
    kind: f.type,
    input: f.type === "number" ? "number" : f.type === "datetime" ? "datetime" : f.type === "boolean" ? "boolean" : "text",
  }));
  const system: Target[] = SYSTEM_FILTER_KEYS.map((key) => ({ name: key, label: SYSTEM_LABELS[key], kind: systemFilterKind(key), input: key === "id" ? "text" : "datetime" }));
  return [...own, ...system];
}

export const opsOf = (target: Target | undefined): readonly FilterOp[] => (target ? filterOps(target.kind) : []);

/** How an operator reads beside its value (also the value input's label). */
export const OP_LABELS: Record<FilterOp, string> = {
  eq: "equals",
  ne: "does not equal",
  in: "is one of",
  nin: "is none of",
  lt: "is less than",
  lte: "is at most",
  gt: "is greater than",
  gte: "is at least",
  contains: "contains",
  null: "is empty",
};

/** Fields a column sort can use: all but json and many-to-many (the API refuses those). */
export const sortable = (f: Field) => f.type !== "json" && f.type !== "relations";

/** The list state in a route's query; anything malformed is dropped rather than guessed at. */
export function fromQuery(query: LocationQuery): ListState {
  const all = (key: string) => [query[key] ?? []].flat().filter((v): v is string => typeof v === "string");
  const one = (key: string) => all(key)[0] ?? "";
  const filters: FilterRow[] = [];
  for (const raw of all("f")) {
    const [field, op, ...rest] = raw.split(".");
    if (field && op && (FILTER_OPS as readonly string[]).includes(op)) filters.push({ field, op: op as FilterOp, value: rest.join(".") });
  }
  const status = one("status");
  const page = Number.parseInt(one("page"), 10);
  return {
    filters,
    q: one("q"),
    searchField: one("qf"),
    sort: one("sort") || DEFAULT_SORT,
    status: status === "draft" || status === "published" ? status : "",
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * A search without its field (`?q=` alone, a hand-written link) searches `field`, the one the
 * search box would pick, instead of being dropped.
 */
export function withSearchField(state: ListState, field: string | undefined): ListState {
  return state.q && !state.searchField && field ? { ...state, searchField: field } : state;
}

/** The route query of a state: only what differs from the defaults, so a plain list has a plain URL. */
export function toQuery(state: ListState): LocationQueryRaw {
  const out: LocationQueryRaw = {};
  const filters = state.filters.filter(isSet).map((f) => `${f.field}.${f.op}.${f.value}`);
  if (filters.length) out.f = filters;
  if (state.q) {
    out.q = state.q;
    if (state.searchField) out.qf = state.searchField;
  }
  if (state.sort !== DEFAULT_SORT) out.sort = state.sort;
  if (state.status) out.status = state.status;
  if (state.page > 1) out.page = String(state.page);
  return out;
}

/** A row the list applies: a field and a value (an empty value is a row still being written). */
export const isSet = (f: FilterRow) => f.field !== "" && f.value !== "";

/** The API parameter a row becomes (a 400 names it: that is how its message finds the row). */
export const filterKey = (f: Pick<FilterRow, "field" | "op">) => `filter[${f.field}][${f.op}]`;

/** The API query of a state: filters AND-ed, the search as one more `contains`. */
export function apiQuery(state: ListState, pageSize: number): Record<string, string | number | string[]> {
  const query: Record<string, string | number | string[]> = { limit: pageSize, offset: (state.page - 1) * pageSize, sort: state.sort };
  if (state.status) query.status = state.status;
  const add = (key: string, value: string) => {
    const had = query[key];
    query[key] = had === undefined ? value : [...[had].flat().map(String), value];
  };
  for (const f of state.filters.filter(isSet)) add(filterKey(f), f.value);
  if (state.q && state.searchField) add(filterKey({ field: state.searchField, op: "contains" }), state.q);
  return query;
}
