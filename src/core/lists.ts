/**
 * The one format of every management list, over HTTP and MCP (docs/api-conventions.md):
 * `{data: [...], meta: {...}}`. A paginated list's meta is `{total, limit, offset}`; a list that
 * always answers whole (collections, forms, rules, keys, members, webhooks) has `{total}`, so a
 * client reads `data` and `meta.total` the same way everywhere. Pure.
 *
 * @example
 * listOf([a, b]); // { data: [a, b], meta: { total: 2 } }
 * pageOf(rows, 42, { limit: 20, offset: 20 }); // { data: rows, meta: { total: 42, limit: 20, offset: 20 } }
 */

/** The meta of a list that always answers whole. */
export interface WholeListMeta {
  total: number;
}

/** The meta of one page of a longer list. */
export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
}

/** A list response: the records and what the client needs to know about the rest (a type, not an
 * interface, so it passes where a plain JSON object is expected, e.g. an MCP tool's output). */
export type ListResponse<T, M extends WholeListMeta = WholeListMeta> = {
  data: T[];
  meta: M;
};

/** A whole (unpaginated) list. */
export function listOf<T>(rows: readonly T[]): ListResponse<T> {
  return { data: [...rows], meta: { total: rows.length } };
}

/** One page of `total` records. */
export function pageOf<T>(rows: readonly T[], total: number, page: { limit: number; offset: number }): ListResponse<T, PageMeta> {
  return { data: [...rows], meta: { total, limit: page.limit, offset: page.offset } };
}
