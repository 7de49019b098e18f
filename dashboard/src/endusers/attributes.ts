// End-user attributes as editable rows and back. Rules compare these values by type ("pro" is not
// 1, 5 is not "5"), so each row says its type instead of guessing it from the text typed.

export const KINDS = ["string", "number", "boolean", "list", "null"] as const;
export type Kind = (typeof KINDS)[number];
export const KIND_LABELS: Record<Kind, string> = { string: "text", number: "number", boolean: "true/false", list: "list (JSON array)", null: "empty (null)" };

export interface AttributeRow {
  name: string;
  kind: Kind;
  /** Text for string, number and list; "true"/"false" for boolean; unused for null. */
  value: string;
}

/** The rows of a stored attributes object, in its order. */
export function toRows(attributes: Record<string, unknown>): AttributeRow[] {
  return Object.entries(attributes).map(([name, v]) => {
    if (v === null) return { name, kind: "null", value: "" };
    if (Array.isArray(v)) return { name, kind: "list", value: JSON.stringify(v) };
    if (typeof v === "number") return { name, kind: "number", value: String(v) };
    if (typeof v === "boolean") return { name, kind: "boolean", value: String(v) };
    return { name, kind: "string", value: String(v) };
  });
}

/**
 * The attributes object the rows make, or the message for each row that cannot be read (by index).
 * The service checks names and values again and has the last word; this catches what only the
 * rows can tell: an unnamed row, a name twice, text where a number or a list belongs.
 */
export function fromRows(rows: readonly AttributeRow[]): { attributes: Record<string, unknown> } | { errors: Record<number, string> } {
  const errors: Record<number, string> = {};
  const attributes: Record<string, unknown> = Object.create(null);
  rows.forEach((row, i) => {
    const name = row.name.trim();
    if (!name) return void (errors[i] = "Give the attribute a name.");
    if (rows.findIndex((r) => r.name.trim() === name) !== i) return void (errors[i] = `Another row is already named ${name}.`);
    const value = valueOf(row);
    if ("error" in value) errors[i] = value.error;
    else attributes[name] = value.value;
  });
  return Object.keys(errors).length > 0 ? { errors } : { attributes: { ...attributes } };
}

function valueOf(row: AttributeRow): { value: unknown } | { error: string } {
  switch (row.kind) {
    case "null":
      return { value: null };
    case "boolean":
      return { value: row.value === "true" };
    case "number": {
      const n = Number(row.value);
      return row.value.trim() !== "" && Number.isFinite(n) ? { value: n } : { error: "Not a number: type digits, e.g. 5 or 2.5." };
    }
    case "list": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(row.value);
      } catch {
        parsed = undefined;
      }
      return Array.isArray(parsed) ? { value: parsed } : { error: 'A list is a JSON array, e.g. ["editor", "author"].' };
    }
    default:
      return { value: row.value };
  }
}
