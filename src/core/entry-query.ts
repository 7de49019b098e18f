/**
 * List query parameters of the delivery and dashboard entry lists (docs/content.md): `limit`,
 * `offset`, `sort`, `filter[field]=value` (equality) and, on the dashboard, `status`. Every field
 * name is checked against the collection definition here, so storage only ever sees known names.
 * Pure.
 *
 * @example
 * parseEntryListQuery(def, new URLSearchParams("limit=5&sort=-views&filter[featured]=true"));
 */
import { badRequest } from "./errors.js";
import { NUL_REFUSED } from "./nul.js";
import type { EntryStatus } from "./events.js";
import type { CollectionDefinition, FieldDefinition } from "./collections.js";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The parameters parseEntryListQuery reads, described for the API reference (docs/api.md). */
export const ENTRY_LIST_PARAMS: { name: string; description: string }[] = [
  { name: "limit", description: `Page size, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}; a larger value is lowered to ${MAX_LIMIT}).` },
  { name: "offset", description: "Entries to skip (default 0)." },
  { name: "sort", description: "`field` ascending or `-field` descending, a user field or id, _created_at, _updated_at, _published_at (default `-_created_at`)." },
  { name: "filter[field]", description: "Equality filter on a user field, e.g. `filter[featured]=true`; several are AND-ed." },
  { name: "status", description: "Dashboard only: draft or published." },
];

/** The delivery list reads them all but `status` (it never returns drafts). */
export const DELIVERY_LIST_PARAMS = ENTRY_LIST_PARAMS.filter((q) => q.name !== "status");

/** Sortable system keys and the columns they read (a fixed map: nothing user-supplied). */
export const SYSTEM_SORT_COLUMNS = {
  id: "id",
  _created_at: "created_at",
  _updated_at: "updated_at",
  _published_at: "published_at",
} as const;
export type SystemSortKey = keyof typeof SYSTEM_SORT_COLUMNS;

export type EntrySort =
  | { kind: "system"; key: SystemSortKey; desc: boolean }
  | { kind: "field"; field: FieldDefinition; desc: boolean };

/** An equality filter on a user field, with the value already typed for that field. */
export interface EntryFilter {
  field: FieldDefinition;
  value: string | number | boolean;
}

export interface EntryListQuery {
  limit: number;
  offset: number;
  sort: EntrySort;
  filters: EntryFilter[];
  /** Dashboard only; the delivery API always reads published entries. */
  status: EntryStatus | undefined;
}

const FILTER_PARAM = /^filter\[([^\]]*)\]$/;
const UNSORTABLE = new Set(["json", "relations"]);

/**
 * Parses and validates list parameters; 400 naming the parameter otherwise. A limit above 100
 * is lowered to 100 (the response's meta.limit says so); unknown parameters other than
 * `filter…` ones are ignored.
 */
export function parseEntryListQuery(
  def: Pick<CollectionDefinition, "name" | "fields">,
  params: URLSearchParams,
  options: { allowStatus?: boolean } = {},
): EntryListQuery {
  const limit = Math.min(integerParam(params, "limit", DEFAULT_LIMIT), MAX_LIMIT);
  const offset = integerParam(params, "offset", 0);
  const sort = parseSort(def, params.get("sort"));
  const filters: EntryFilter[] = [];
  for (const [key, raw] of params) {
    if (!key.startsWith("filter")) continue;
    const m = FILTER_PARAM.exec(key);
    if (!m) throw badRequest(`${key}: filters are written filter[field]=value`, { parameter: key });
    const field = def.fields.find((f) => f.name === m[1]);
    if (!field) throw badRequest(`${key}: ${describeName(m[1]!)} is not a field of collection ${def.name}`, { parameter: key });
    filters.push({ field, value: filterValue(field, raw, key) });
  }
  let status: EntryStatus | undefined;
  const s = params.get("status");
  if (options.allowStatus && s !== null && s !== "") {
    if (s !== "draft" && s !== "published") throw badRequest(`status: must be draft or published`, { parameter: "status" });
    status = s;
  }
  return { limit, offset, sort, filters, status };
}

function integerParam(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw badRequest(`${name}: must be a non-negative integer`, { parameter: name });
  return Number(raw);
}

function parseSort(def: Pick<CollectionDefinition, "name" | "fields">, raw: string | null): EntrySort {
  if (raw === null || raw === "") return { kind: "system", key: "_created_at", desc: true };
  const desc = raw.startsWith("-");
  const name = desc ? raw.slice(1) : raw;
  if (Object.hasOwn(SYSTEM_SORT_COLUMNS, name)) return { kind: "system", key: name as SystemSortKey, desc };
  const field = def.fields.find((f) => f.name === name);
  if (!field) throw badRequest(`sort: ${describeName(name)} is not a field of collection ${def.name} (nor id, _created_at, _updated_at, _published_at)`, { parameter: "sort" });
  if (UNSORTABLE.has(field.type)) throw badRequest(`sort: ${name} is a ${field.type} field and cannot be sorted on`, { parameter: "sort" });
  return { kind: "field", field, desc };
}

function filterValue(field: FieldDefinition, raw: string, key: string): string | number | boolean {
  switch (field.type) {
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) throw badRequest(`${key}: ${field.name} is a number field`, { parameter: key });
      return n;
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw badRequest(`${key}: ${field.name} is a boolean field (true or false)`, { parameter: key });
      return raw === "true";
    case "datetime": {
      const t = Date.parse(raw);
      if (!Number.isFinite(t)) throw badRequest(`${key}: ${field.name} is a datetime field (ISO 8601)`, { parameter: key });
      return new Date(t).toISOString();
    }
    case "json":
      throw badRequest(`${key}: ${field.name} is a json field and cannot be filtered on`, { parameter: key });
    default:
      // Compared as jsonb on PostgreSQL, which cannot hold NUL (core/nul.ts).
      if (raw.includes("\0")) throw badRequest(`${key}: ${NUL_REFUSED}`, { parameter: key });
      return raw;
  }
}

/** A user-supplied name, quoted and shortened for an error message. */
function describeName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}
