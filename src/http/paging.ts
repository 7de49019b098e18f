/**
 * `?limit=&offset=` of list endpoints, validated with a 400 naming the parameter.
 */
import { badRequest } from "../core/errors.js";

/** A page request: `limit` in 1..max (default `fallback`), `offset` ≥ 0 (default 0). */
export function readPage(query: Record<string, unknown>, options: { max?: number; fallback?: number } = {}): { limit: number; offset: number } {
  const max = options.max ?? 100;
  const int = (name: string, value: unknown, fallback: number, min: number, top: number) => {
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (typeof value !== "string" || !Number.isInteger(n) || n < min || n > top) throw badRequest(`${name} must be an integer from ${min} to ${top}`);
    return n;
  };
  return { limit: int("limit", query.limit, options.fallback ?? 50, 1, max), offset: int("offset", query.offset, 0, 0, Number.MAX_SAFE_INTEGER) };
}

/** The parameters readPage reads, described for the API reference (docs/api.md). */
export const PAGE_PARAMS: { name: string; description: string }[] = [
  { name: "limit", description: "Page size, an integer from 1 to the list's maximum (see its summary)." },
  { name: "offset", description: "Records to skip, an integer ≥ 0 (default 0)." },
];
