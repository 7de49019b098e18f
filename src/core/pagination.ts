/**
 * The one home of pagination: every list's page-size default and ceiling, and the parsing of
 * `?limit=&offset=` (docs/api-conventions.md). A limit above the ceiling is refused, never
 * lowered, so a client never silently gets fewer rows than it asked for; every refusal is a 400
 * naming the parameter (and the maximum). Pure.
 *
 * @example
 * parsePage({ limit: "10" }, PAGE_SIZES.entries); // { limit: 10, offset: 0 }
 * parsePage(new URLSearchParams("limit=500"), PAGE_SIZES.entries); // 400 "limit: must be an integer from 0 to 100"
 */
import { z } from "zod";
import { badRequest } from "./errors.js";

/** A list's page size: the smallest accepted, the default and the ceiling. */
export interface PageSize {
  readonly min: number;
  readonly default: number;
  readonly max: number;
}

/** Every list's page sizes, by family. */
export const PAGE_SIZES = {
  /** Entry lists (delivery API, dashboard, MCP list_items, CLI); limit 0 answers only meta.total. */
  entries: { min: 0, default: 20, max: 100 },
  /** Dashboard lists of people's records: form submissions, end users. */
  records: { min: 1, default: 50, max: 200 },
  /** Dashboard lists of files: media assets, site deploys. */
  files: { min: 1, default: 50, max: 100 },
} as const satisfies Record<string, PageSize>;

/** The largest offset accepted (beyond it no list has rows; it keeps the number exact). */
export const MAX_OFFSET = 999_999_999;

/** Query parameters as h3's getQuery gives them, or a URLSearchParams. */
export type QueryInput = URLSearchParams | Record<string, unknown>;

/** One page request. */
export interface Page {
  limit: number;
  offset: number;
}

/** `limit` and `offset` of a list with these page sizes, described for the API reference (docs/api.md). */
export function pageParams(size: PageSize) {
  return z.object({
    limit: z.string().optional().describe(`Page size, an integer from ${size.min} to ${size.max} (default ${size.default}); above ${size.max}: 400.`),
    offset: z.string().optional().describe(`Records to skip, an integer from 0 to ${MAX_OFFSET} (default 0).`),
  });
}

/** Parses `limit` and `offset`; 400 naming the parameter and its range otherwise. */
export function parsePage(query: QueryInput, size: PageSize): Page {
  return {
    limit: integerParam(query, "limit", size.default, size.min, size.max),
    offset: integerParam(query, "offset", 0, 0, MAX_OFFSET),
  };
}

/**
 * One integer parameter in min..max (`fallback` when absent or empty). Only plain digits pass:
 * no sign, exponent or fraction, and a parameter given twice is refused rather than guessed at.
 */
export function integerParam(query: QueryInput, name: string, fallback: number, min: number, max: number): number {
  const values = query instanceof URLSearchParams ? query.getAll(name) : [query[name]].flat().filter((v) => v !== undefined);
  if (values.length === 0) return fallback;
  if (values.length > 1) throw badRequest(`${name}: given more than once`, { parameter: name });
  const raw = values[0];
  if (raw === "") return fallback;
  const n = typeof raw === "string" && /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) throw badRequest(`${name}: must be an integer from ${min} to ${max}`, { parameter: name, minimum: min, maximum: max });
  return n;
}
