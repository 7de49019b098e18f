/**
 * The query language of entry lists — delivery API, dashboard list, MCP list_items, CLI
 * (docs/content.md "Query parameters"): `limit`, `offset` or `after` (an opaque cursor), `sort`
 * (several keys), `fields`, `expand`, `filter[field][op]=value` and, off the delivery API,
 * `status`. A single-entry read takes `fields` and `expand` alone. Every name is checked against the collection definition here, so storage only ever
 * sees known fields; anything else is a 400 naming the parameter. Pure.
 *
 * @example
 * parseEntryListQuery(def, new URLSearchParams("limit=5&sort=-views,title&filter[views][gte]=10&expand=author"));
 */
import { z } from "zod";
import { badRequest, ServiceError } from "./errors.js";
import { NUL_REFUSED } from "./nul.js";
import { ISO_DATE } from "./entry-schema.js";
import { SYSTEM_FIELDS, type CollectionDefinition, type FieldDefinition } from "./collections.js";
import { ENTRY_STATUSES, type EntryStatus } from "./events.js";
import { MAX_OFFSET, PAGE_SIZES, integerParam } from "./pagination.js";
import { FILTER_OPS, MAX_CONTAINS_FILTERS, MAX_CONTAINS_LENGTH, MAX_FILTERS, MAX_IN_VALUES, filterOps, systemFilterKind, type FilterOp } from "./filter-ops.js";

export { FILTER_OPS, MAX_CONTAINS_FILTERS, MAX_CONTAINS_LENGTH, MAX_FILTERS, MAX_IN_VALUES, type FilterOp };

export const DEFAULT_LIMIT = PAGE_SIZES.entries.default;
export const MAX_LIMIT = PAGE_SIZES.entries.max;
/** At most this many sort keys (before the id tie-break). */
export const MAX_SORT_KEYS = 5;
/**
 * `contains` searches the first this many characters of each value: the work one entry costs
 * stays bounded whatever its length (docs/content.md "What a query can cost").
 */
export const CONTAINS_SCAN_LENGTH = 100_000;

/** Default of createService's `queryBudgetMs`: how long one list read may run where the database can stop it. */
export const DEFAULT_QUERY_BUDGET_MS = 2000;

/** 503 for a list read the database stopped at the service's query budget. */
export const overQueryBudget = (ms: number) =>
  new ServiceError(503, "unavailable", `This list took longer than the query budget of ${ms} ms and was stopped; filter or sort on id, _created_at, _updated_at or _published_at, or ask for fewer entries`, { budget_ms: ms }, { "retry-after": "1" });

/** System keys that sort and filter, and the columns they read (a fixed map: nothing user-supplied). */
export const SYSTEM_SORT_COLUMNS = {
  id: "id",
  _created_at: "created_at",
  _updated_at: "updated_at",
  _published_at: "published_at",
} as const;
export type SystemSortKey = keyof typeof SYSTEM_SORT_COLUMNS;

/** What a sort key or filter reads: a system column or a user field of the definition. */
export type QueryTarget = { kind: "system"; key: SystemSortKey } | { kind: "field"; field: FieldDefinition };

export interface EntrySort {
  target: QueryTarget;
  desc: boolean;
}

export type FilterScalar = string | number | boolean;

/** One filter, its value already typed for the target (a list for in/nin, a boolean for null). */
export interface EntryFilter {
  target: QueryTarget;
  op: FilterOp;
  value: FilterScalar | FilterScalar[];
}

/** A position in a sorted list: one value per sort key (the last is always the id). */
export type CursorValues = (FilterScalar | null)[];

export interface EntryListQuery {
  limit: number;
  offset: number;
  /** The sort keys; always ends with `id` so the order is total (stable pages). */
  sort: EntrySort[];
  filters: EntryFilter[];
  /** Dashboard and MCP only; the delivery API always reads published entries. */
  status: EntryStatus | undefined;
  /** Keyset position after which the page starts (`after=`). */
  after: CursorValues | undefined;
  /** User fields to return, or undefined for all (system fields always come). */
  fields: string[] | undefined;
  /** relation / relations fields whose ids are replaced by the entries they name. */
  expand: FieldDefinition[];
}

type Definition = Pick<CollectionDefinition, "name" | "fields">;

/**
 * The parameters of an entry list, described once (for the route docs and an OpenAPI generator);
 * `filter[field]` and `filter[field][op]` are the pattern properties. Parsing is
 * parseEntryListQuery's, which also checks names against the collection.
 */
const selectionParams = {
  fields: z.string().optional().describe("Comma-separated user fields to return; system fields always come."),
  expand: z.string().optional().describe("Comma-separated relation/relations fields whose ids become the related entries (one level)."),
};

export const entryListParams = z
  .object({
    limit: z.string().optional().describe(`Page size, ${PAGE_SIZES.entries.min}-${MAX_LIMIT} (default ${DEFAULT_LIMIT}); 0 answers only meta.total. Above ${MAX_LIMIT}: 400.`),
    offset: z.string().optional().describe(`Entries to skip (0-${MAX_OFFSET}, default 0). Not with after.`),
    after: z.string().optional().describe("Opaque cursor from a previous page's meta.next: the page starts after it (keyset). Not with offset."),
    sort: z.string().optional().describe(`Up to ${MAX_SORT_KEYS} comma-separated keys, field or -field (descending): user fields (not json/relations), id, _created_at, _updated_at, _published_at. Default -_created_at; ties by id.`),
    ...selectionParams,
    status: z.enum(ENTRY_STATUSES).optional().describe("Dashboard and MCP only: draft or published."),
  })
  .catchall(
    z
      .string()
      .describe(`filter[field]=value (eq) or filter[field][op]=value, op one of ${FILTER_OPS.join(", ")}; at most ${MAX_FILTERS} filters, ${MAX_CONTAINS_FILTERS} of them contains, each of at most ${MAX_CONTAINS_LENGTH} characters`),
  );

/** The delivery list reads them all but `status` (it never returns drafts). */
export const deliveryListParams = entryListParams.omit({ status: true });

/** The parameters of a single-entry read (`GET …/{id}`, get_item): the list's `fields` and `expand`, nothing else. */
export const entryReadParams = z.strictObject(selectionParams);

const READ_KNOWN = ["fields", "expand"];
const KNOWN = ["limit", "offset", "after", "sort", ...READ_KNOWN];
const FILTER_PARAM = /^filter\[([^\]]*)\](?:\[([^\]]*)\])?$/;
const UNSORTABLE = new Set(["json", "relations"]);
const EXPANDABLE = new Set(["relation", "relations"]);

/**
 * Parses and validates list parameters; 400 naming the parameter otherwise: an unknown
 * parameter, field or operator, a value of the wrong type, a limit above the maximum, `after`
 * with `offset`, a cursor that is not one of ours or belongs to another sort.
 */
export function parseEntryListQuery(def: Definition, params: URLSearchParams, options: { allowStatus?: boolean } = {}): EntryListQuery {
  refuseUnknown(params, [...KNOWN, ...(options.allowStatus ? ["status"] : [])], true, "this list");
  const filters: EntryFilter[] = [];
  for (const [key, raw] of params) {
    if (!key.startsWith("filter")) continue;
    if (filters.length === MAX_FILTERS) throw badRequest(`${key}: at most ${MAX_FILTERS} filters`, { parameter: key });
    const filter = parseFilter(def, key, raw);
    if (filter.op === "contains" && filters.filter((f) => f.op === "contains").length === MAX_CONTAINS_FILTERS) {
      throw badRequest(`${key}: at most ${MAX_CONTAINS_FILTERS} contains filters in one query`, { parameter: key, maximum: MAX_CONTAINS_FILTERS });
    }
    filters.push(filter);
  }
  const limit = integerParam(params, "limit", DEFAULT_LIMIT, PAGE_SIZES.entries.min, MAX_LIMIT);
  const offset = integerParam(params, "offset", 0, 0, MAX_OFFSET);
  const sort = parseSort(def, single(params, "sort"));
  const rawAfter = single(params, "after");
  if (rawAfter && params.has("offset")) throw badRequest("after: a cursor and an offset cannot be combined; page with one or the other", { parameter: "after" });
  const after = rawAfter ? decodeCursor(sort, rawAfter) : undefined;
  const { fields, expand } = parseSelection(def, params);
  let status: EntryStatus | undefined;
  const s = options.allowStatus ? single(params, "status") : undefined;
  if (s) {
    if (s !== "draft" && s !== "published") throw badRequest(`status: must be draft or published`, { parameter: "status" });
    status = s;
  }
  return { limit, offset, sort, filters, status, after, fields, expand };
}

/** What a single-entry read returns, its selection: the user fields to keep and the relations to expand. */
export type EntryReadQuery = Pick<EntryListQuery, "fields" | "expand">;

/**
 * Parses the parameters of a single-entry read: `fields` and `expand` exactly as a list takes
 * them; anything else (a filter, a page, a sort) is a 400 naming it.
 *
 * @example
 * parseEntryReadQuery(def, new URLSearchParams("fields=title&expand=author"));
 */
export function parseEntryReadQuery(def: Definition, params: URLSearchParams): EntryReadQuery {
  refuseUnknown(params, READ_KNOWN, false, "a single entry");
  return parseSelection(def, params);
}

/** The selection of a read: `fields` (the user fields kept) and `expand` (the relations replaced by their entries). */
function parseSelection(def: Definition, params: URLSearchParams): EntryReadQuery {
  return { fields: parseFields(def, single(params, "fields")), expand: parseExpand(def, single(params, "expand")) };
}

/** 400 naming the first parameter not in `known` (nor a `filter…` one, when `filters`). */
function refuseUnknown(params: URLSearchParams, known: string[], filters: boolean, what: string): void {
  for (const key of new Set(params.keys())) {
    if ((filters && key.startsWith("filter")) || known.includes(key)) continue;
    const names = [...known, ...(filters ? ["filter[field][op]"] : [])].join(", ");
    throw badRequest(`${describeName(key)} is not a query parameter of ${what} (${names})`, { parameter: key });
  }
}

/** A single-valued parameter, or undefined when absent or empty; 400 when given twice. */
function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw badRequest(`${name}: given more than once`, { parameter: name });
  return all[0] || undefined;
}

/**
 * A comma-separated list, each item trimmed; 400 naming the parameter when an item is empty (a
 * stray, leading or doubled comma, or only spaces): a list is never silently shortened.
 */
function list(raw: string, parameter: string): string[] {
  const items = raw.split(",").map((s) => s.trim());
  if (items.some((item) => item === "")) throw badRequest(`${parameter}: ${describeName(raw)} has an empty item (a stray comma or only spaces); separate names with single commas`, { parameter });
  return items;
}

function findField(def: Definition, name: string, parameter: string, note = ""): FieldDefinition {
  const field = def.fields.find((f) => f.name === name);
  if (!field) throw badRequest(`${parameter}: ${describeName(name)} is not a field of collection ${def.name}${note}`, { parameter });
  return field;
}

function target(def: Definition, name: string, parameter: string): QueryTarget {
  if (Object.hasOwn(SYSTEM_SORT_COLUMNS, name)) return { kind: "system", key: name as SystemSortKey };
  return { kind: "field", field: findField(def, name, parameter, " (nor id, _created_at, _updated_at, _published_at)") };
}

function parseSort(def: Definition, raw: string | undefined): EntrySort[] {
  const keys: EntrySort[] = [];
  for (const item of raw ? list(raw, "sort") : ["-_created_at"]) {
    const desc = item.startsWith("-");
    const name = desc ? item.slice(1) : item;
    if (name === "") throw badRequest(`sort: "-" names no key (write -field)`, { parameter: "sort" });
    const t = target(def, name, "sort");
    if (t.kind === "field" && UNSORTABLE.has(t.field.type)) throw badRequest(`sort: ${name} is a ${t.field.type} field and cannot be sorted on`, { parameter: "sort" });
    if (keys.some((k) => targetName(k.target) === name)) throw badRequest(`sort: ${name} is named twice`, { parameter: "sort" });
    keys.push({ target: t, desc });
    if (name === "id") break; // unique: any later key could never decide anything
  }
  if (keys.length > MAX_SORT_KEYS) throw badRequest(`sort: at most ${MAX_SORT_KEYS} keys`, { parameter: "sort" });
  const last = keys[keys.length - 1];
  if (last && !(last.target.kind === "system" && last.target.key === "id")) keys.push({ target: { kind: "system", key: "id" }, desc: last.desc });
  return keys;
}

function parseFields(def: Definition, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const system = new Set<string>(SYSTEM_FIELDS);
  const names = list(raw, "fields").filter((n) => !system.has(n));
  for (const n of names) findField(def, n, "fields");
  return [...new Set(names)];
}

function parseExpand(def: Definition, raw: string | undefined): FieldDefinition[] {
  if (raw === undefined) return [];
  const out: FieldDefinition[] = [];
  for (const name of new Set(list(raw, "expand"))) {
    const field = findField(def, name, "expand");
    if (!EXPANDABLE.has(field.type)) throw badRequest(`expand: ${name} is a ${field.type} field; only relation and relations fields expand (one level)`, { parameter: "expand" });
    out.push(field);
  }
  return out;
}

function parseFilter(def: Definition, key: string, raw: string): EntryFilter {
  const m = FILTER_PARAM.exec(key);
  if (!m) throw badRequest(`${key}: filters are written filter[field]=value or filter[field][op]=value`, { parameter: key });
  const t = target(def, m[1]!, key);
  const op = (m[2] ?? "eq") as FilterOp;
  if (!FILTER_OPS.includes(op)) throw badRequest(`${key}: unknown operator ${describeName(op)} (${FILTER_OPS.join(", ")})`, { parameter: key });
  const allowed = filterOps(t.kind === "system" ? systemFilterKind(t.key) : t.field.type);
  if (!allowed.includes(op)) {
    throw badRequest(`${key}: ${targetName(t)} is ${t.kind === "field" ? `a ${t.field.type} field` : "a system field"}; it takes ${allowed.join(", ")}`, { parameter: key });
  }
  if (op === "null") {
    if (raw !== "true" && raw !== "false") throw badRequest(`${key}: null takes true or false`, { parameter: key });
    return { target: t, op, value: raw === "true" };
  }
  if (op === "in" || op === "nin") {
    const items = raw.split(",");
    if (items.length > MAX_IN_VALUES) throw badRequest(`${key}: at most ${MAX_IN_VALUES} values`, { parameter: key });
    // An empty item is a stray comma, not a wish to match "" (eq matches an empty string).
    if (items.includes("")) throw badRequest(`${key}: ${raw === "" ? "an empty list" : "an empty value in the list (a stray comma)"}; give one or more comma-separated values`, { parameter: key });
    return { target: t, op, value: items.map((item) => scalar(t, item, key)) };
  }
  const length = op === "contains" ? Array.from(raw).length : 0;
  if (length > MAX_CONTAINS_LENGTH) {
    throw badRequest(`${key}: contains takes at most ${MAX_CONTAINS_LENGTH} characters (got ${length})`, { parameter: key, maximum: MAX_CONTAINS_LENGTH });
  }
  return { target: t, op, value: scalar(t, raw, key) };
}

/** One filter or cursor value, typed by what it compares with. */
function scalar(t: QueryTarget, raw: string, key: string): FilterScalar {
  const type = t.kind === "system" ? (t.key === "id" ? "string" : "datetime") : t.field.type;
  const name = targetName(t);
  switch (type) {
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) throw badRequest(`${key}: ${name} is a number field`, { parameter: key });
      return n;
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw badRequest(`${key}: ${name} is a boolean field (true or false)`, { parameter: key });
      return raw === "true";
    case "datetime": {
      const t = Date.parse(raw);
      if (!ISO_DATE.test(raw) || !Number.isFinite(t)) throw badRequest(`${key}: ${name} is a date-time (ISO 8601, e.g. 2024-05-01T00:00:00Z)`, { parameter: key });
      return new Date(t).toISOString();
    }
    default:
      // Compared as jsonb on PostgreSQL, which cannot hold NUL (core/nul.ts).
      if (raw.includes("\0")) throw badRequest(`${key}: ${NUL_REFUSED}`, { parameter: key });
      return raw;
  }
}

/** The name a query uses for a target. */
export function targetName(t: QueryTarget): string {
  return t.kind === "system" ? t.key : t.field.name;
}

/** Whether a target can be unset: user fields, and _published_at of drafts. */
export function targetNullable(t: QueryTarget, publishedOnly: boolean): boolean {
  return t.kind === "field" || (t.key === "_published_at" && !publishedOnly);
}

/** The sort as a `sort=` value (what a cursor is bound to). */
function sortSignature(sort: EntrySort[]): string {
  return sort.map((k) => `${k.desc ? "-" : ""}${targetName(k.target)}`).join(",");
}

/**
 * The cursor of the position just after `entry` (an entry as the API returns it: system fields by
 * their `_` names, user fields by name): base64url of JSON `[sort, ...values]`.
 */
export function encodeCursor(sort: EntrySort[], entry: Record<string, unknown>): string {
  const values = sort.map((k) => (entry[targetName(k.target)] ?? null) as FilterScalar | null);
  return Buffer.from(JSON.stringify([sortSignature(sort), ...values])).toString("base64url");
}

/** The values of a cursor made for this sort; 400 for anything else (edited, truncated, another sort). */
export function decodeCursor(sort: EntrySort[], raw: string): CursorValues {
  const refuse = (why: string) => badRequest(`after: ${why}`, { parameter: "after" });
  let parsed: unknown;
  try {
    const bytes = Buffer.from(raw, "base64url");
    // Only the exact encoding we issue: stray or trailing characters are an edited cursor.
    if (raw.length > 2048 || bytes.toString("base64url") !== raw) throw new Error("not our encoding");
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw refuse("not a cursor of this API (pass meta.next of the previous page unchanged)");
  }
  if (!Array.isArray(parsed) || parsed.length !== sort.length + 1) throw refuse("not a cursor of this API (pass meta.next of the previous page unchanged)");
  if (parsed[0] !== sortSignature(sort)) throw refuse(`this cursor belongs to another sort (${JSON.stringify(String(parsed[0]).slice(0, 100))}); keep the sort of the page it came from`);
  const values = parsed.slice(1) as unknown[];
  return sort.map((k, i) => {
    const v = values[i];
    if (v === null && targetNullable(k.target, false)) return null;
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw refuse("a value of this cursor is damaged");
    try {
      return scalar(k.target, String(v), "after");
    } catch {
      throw refuse("a value of this cursor is damaged");
    }
  });
}

/** A user-supplied name, quoted and shortened for an error message. */
function describeName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
