// How an entry value reads in a table cell: always plain text (Vue interpolation escapes it).
import type { Collection, Entry } from "../types";

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** A short label for an entry: its first string field, else its id. */
export function entryLabel(collection: Collection | undefined, entry: Entry): string {
  const field = collection?.fields.find((f) => f.type === "string");
  const value = field ? entry[field.name] : undefined;
  return typeof value === "string" && value ? value : entry.id.slice(0, 8);
}
