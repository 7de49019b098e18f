/**
 * The filter operators of entry lists and their bounds: which operator each kind of field takes,
 * and how many filters, `in` values and `contains` characters one query may carry. Shared by the
 * parser (core/entry-query.ts) and the dashboard's filter builder, so both offer exactly the same
 * operators. Pure and free of imports: the dashboard bundles it as it is.
 *
 * @example
 * filterOps("number"); // ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "null"]
 * filterOps(systemFilterKind("_created_at")); // ["eq", "ne", "lt", "lte", "gt", "gte"]
 */

export const FILTER_OPS = ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "contains", "null"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** At most this many values in one `in`/`nin` list. */
export const MAX_IN_VALUES = 100;
/** At most this many filters in one query. */
export const MAX_FILTERS = 20;
/**
 * The longest `contains` value, in characters. A substring search costs stored length × pattern
 * length at worst (docs/content.md "What a query can cost"), so the service bounds the pattern.
 */
export const MAX_CONTAINS_LENGTH = 100;
/** At most this many `contains` filters in one query: each one reads the text of every entry it tests. */
export const MAX_CONTAINS_FILTERS = 3;

/** Operators each kind of target takes: a field type, or one of the system kinds of systemFilterKind. */
export const OPS_BY_TYPE: Readonly<Record<string, readonly FilterOp[]>> = {
  string: ["eq", "ne", "in", "nin", "contains", "null"],
  text: ["eq", "ne", "in", "nin", "contains", "null"],
  number: ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "null"],
  datetime: ["eq", "ne", "in", "nin", "lt", "lte", "gt", "gte", "null"],
  boolean: ["eq", "ne", "null"],
  media: ["eq", "ne", "in", "nin", "null"],
  relation: ["eq", "ne", "in", "nin", "null"],
  relations: ["eq", "ne", "in", "nin", "null"],
  json: ["null"],
  id: ["eq", "ne", "in", "nin"],
  systemDate: ["eq", "ne", "lt", "lte", "gt", "gte"],
  _published_at: ["eq", "ne", "lt", "lte", "gt", "gte", "null"],
};

/** System keys that filter (and sort), in the order a list offers them. */
export const SYSTEM_FILTER_KEYS = ["id", "_created_at", "_updated_at", "_published_at"] as const;
export type SystemFilterKey = (typeof SYSTEM_FILTER_KEYS)[number];

/** The OPS_BY_TYPE kind of a system key: `id`, `_published_at` (unset on drafts), or a system date. */
export function systemFilterKind(key: SystemFilterKey): "id" | "_published_at" | "systemDate" {
  return key === "id" ? "id" : key === "_published_at" ? "_published_at" : "systemDate";
}

/** The operators a kind takes (none for an unknown kind). */
export function filterOps(kind: string): readonly FilterOp[] {
  return Object.hasOwn(OPS_BY_TYPE, kind) ? OPS_BY_TYPE[kind]! : [];
}
