/**
 * JSON columns read leniently: a row written by an older version, or damaged by hand, reads as
 * empty rather than failing the whole request. Callers narrow the elements themselves.
 */
import { dataRecord } from "../core/records.js";

/** The parsed value, or `undefined` when `json` is not JSON. */
export function parseJsonColumn(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A stored JSON object; anything else (not JSON, an array, a scalar) reads as `{}`. Its keys are
 * user-chosen names (entry fields, attributes, form fields), so it has no prototype: a field named
 * `constructor` that was never set reads as undefined (core/records.ts).
 *
 * @example
 * parseObjectColumn('{"plan":"pro"}'); // { plan: "pro" }, without a prototype
 * parseObjectColumn("[1]"); // {}
 */
export function parseObjectColumn(json: string): Record<string, unknown> {
  const value = parseJsonColumn(json);
  // JSON.parse makes every key, `__proto__` included, an own property: dropping the prototype
  // afterwards changes no key and copies nothing.
  if (value && typeof value === "object" && !Array.isArray(value)) return Object.setPrototypeOf(value, null) as Record<string, unknown>;
  return dataRecord();
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
