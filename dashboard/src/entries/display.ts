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

/**
 * A `datetime-local` value read as UTC, as ISO 8601; undefined when it is no date JavaScript can
 * hold as such (a year of five or more digits), instead of throwing.
 */
export function utcIso(local: string): string | undefined {
  const date = new Date(`${local}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The message a date input shows while its value cannot be read (see utcIso). */
export const BAD_DATE = "Not a date that can be saved: use a year of four digits, e.g. 2026-05-01 10:00.";
