/**
 * `?limit=&offset=` of the dashboard's list routes (submissions, end users): validated, with a
 * default and a ceiling; 400 naming the parameter.
 *
 * @example
 * parsePage(getQuery(event)); // { limit: 50, offset: 0 }
 */
import { badRequest } from "../core/errors.js";

/** Page size: default and ceiling. */
export const PAGE = { default: 50, max: 200 } as const;

export function parsePage(query: Record<string, unknown>): { limit: number; offset: number } {
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = query[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`${name} must be an integer from ${min} to ${max}`, { field: name });
    return n;
  };
  return { limit: int("limit", PAGE.default, 1, PAGE.max), offset: int("offset", 0, 0, Number.MAX_SAFE_INTEGER) };
}
