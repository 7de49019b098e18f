/**
 * Records keyed by what people name (entry fields, form fields, attributes, header names) hold
 * data, never JavaScript: in a plain object, reading an absent field named `constructor` or
 * `toString` finds Object.prototype's method, and writing `__proto__` replaces the prototype.
 * Such records are built without a prototype and read through their own keys only. Pure.
 *
 * @example
 * const values = dataRecord(JSON.parse('{"title":"Hi"}'));
 * values.toString; // undefined: an absent field, not a function
 * own({ title: "Hi" }, "constructor"); // undefined
 */

/**
 * A record without a prototype holding the own enumerable entries of `from` (an object or
 * key/value pairs): every key, `__proto__` included, is a plain key, and an absent one reads
 * as undefined.
 *
 * @example
 * dataRecord([["constructor", 1]]).constructor; // 1
 */
export function dataRecord<T = unknown>(from?: Readonly<Record<string, T>> | Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (from === undefined) return out;
  const pairs = isIterable(from) ? from : Object.entries(from);
  // Assignment into a prototype-less object defines `__proto__` as an ordinary key.
  for (const [key, value] of pairs) out[key] = value;
  return out;
}

/**
 * `record[key]` when `key` is the record's own property, else undefined: never a value
 * inherited from Object.prototype, whatever kind of object `record` is.
 *
 * @example
 * own(JSON.parse("{}"), "toString"); // undefined
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * True for `__proto__`, the one name no user-named key may take: copied into a plain object by
 * any library, it replaces the prototype instead of being a key. Schemas refuse it, naming it.
 */
export function isPrototypeKey(name: string): boolean {
  return name === "__proto__";
}

function isIterable<T>(value: object): value is Iterable<T> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}
