/**
 * The NUL character (U+0000) is refused in every stored string. PostgreSQL cannot hold it: a text
 * column refuses it, and a JSON text holding the escape `\u0000` fails every `::jsonb` cast, so one
 * such entry would break each sort and filter of its collection. SQLite would take it, but data
 * must move between the two databases, so both refuse it, with a 400 naming the field. Pure.
 */
import { badRequest } from "./errors.js";

/** The refusal's wording, after the field's name. */
export const NUL_REFUSED = "must not contain the NUL character (U+0000)";

/** Path segments of a value inside a body: object keys and array indexes. */
export type ValuePath = (string | number)[];

/**
 * The path of the first string holding NUL in `value` (a string, or an object key or string
 * anywhere inside arrays and objects); `undefined` when there is none. A key holding NUL is
 * reported with the key itself as the last segment.
 *
 * @example
 * findNul({ meta: { tags: ["a", "b\u0000"] } }); // ["meta", "tags", 1]
 * findNul({ title: "fine" });                     // undefined
 */
export function findNul(value: unknown, path: ValuePath = []): ValuePath | undefined {
  if (typeof value === "string") return value.includes("\0") ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes("\0")) return [...path, key];
      const found = findNul(inner, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Throws 400 naming the field (`where` prefixes the path, e.g. a field name or `filter[title]`)
 * when a string in `value` holds NUL. `details.field` is the top-level name.
 *
 * @example
 * refuseNul({ title: "a\u0000b" }); // throws 400 "title: must not contain the NUL character (U+0000)"
 */
export function refuseNul(value: unknown, where: ValuePath = []): void {
  const path = findNul(value, where);
  if (!path) return;
  const name = path.length ? path.map((segment) => String(segment).replaceAll("\0", "\\u0000")).join(".") : "body";
  throw badRequest(`${name}: ${NUL_REFUSED}`, { field: String(path[0] ?? "body").replaceAll("\0", "\\u0000") });
}
