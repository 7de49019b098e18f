/**
 * JSON columns read leniently: a row written by an older version, or damaged by hand, reads as
 * empty rather than failing the whole request. Callers narrow the elements themselves.
 */

/** The parsed value, or `undefined` when `json` is not JSON. */
export function parseJsonColumn(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A stored JSON object; anything else (not JSON, an array, a scalar) reads as `{}`.
 *
 * @example
 * parseObjectColumn('{"plan":"pro"}'); // { plan: "pro" }
 * parseObjectColumn("[1]"); // {}
 */
export function parseObjectColumn(json: string): Record<string, unknown> {
  const value = parseJsonColumn(json);
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A stored JSON array; anything else reads as `[]`. The elements are not checked.
 *
 * @example
 * parseArrayColumn<string>('["a"]'); // ["a"]
 * parseArrayColumn("oops"); // []
 */
export function parseArrayColumn<T = unknown>(json: string): T[] {
  const value = parseJsonColumn(json);
  return Array.isArray(value) ? (value as T[]) : [];
}
