/**
 * Submitted values against a form's fields: coercion of what browsers send (JSON, or strings from
 * urlencoded and multipart bodies) into typed stored values, with errors that name the field, and
 * the strict check of a stored value against a (new) field (spec 5.4.5). Pure: no I/O.
 *
 * @example
 * validateSubmission([{ name: "age", type: "number" }], { age: "42" }); // { data: { age: 42 }, fileFields: Set {} }
 */
import { badRequest } from "./errors.js";
import { fieldsToCheck, maxLengthOf, type FormField } from "./forms.js";
import { NUL_REFUSED } from "./nul.js";
import { dataRecord, own } from "./records.js";

/** An uploaded file as listed with its submission (the bytes are a blob). */
export interface SubmissionFile {
  id: string;
  field: string;
  filename: string;
  content_type: string;
  size: number;
}

/** A stored row's values by field name (prototype-less); file fields map to their `SubmissionFile[]`. */
export type StoredValues = Record<string, unknown>;

/** One refused value. */
export interface FieldError {
  field: string;
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TRUE = new Set(["true", "on", "1", "yes"]);
const FALSE = new Set(["false", "off", "0", "no"]);

type Coerced = { absent: true } | { value: unknown } | { error: string };

/**
 * Validates submitted values. Unknown names (submit buttons, tracking fields) are dropped, never
 * stored; `uploaded` names the fields that came with a file part. Throws 400 whose message names
 * the first bad field, with every problem in `errors`.
 *
 * @example
 * validateSubmission([{ name: "email", type: "email", required: true }], {}); // throws 400 "email: is required"
 */
export function validateSubmission(
  fields: readonly FormField[],
  values: Record<string, unknown>,
  uploaded: readonly string[] = [],
): { data: Record<string, unknown>; fileFields: Set<string> } {
  const data = dataRecord();
  const fileFields = new Set<string>();
  const errors: FieldError[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const name of new Set(uploaded)) {
    const f = byName.get(name);
    if (f && f.type !== "file") errors.push({ field: name, message: "is not a file field; send text, not a file" });
    if (f?.type === "file" && uploaded.filter((n) => n === name).length > 1) errors.push({ field: name, message: "takes one file" });
  }
  for (const field of fields) {
    const raw = own(values, field.name);
    if (field.type === "file") {
      if (raw !== undefined && raw !== null && raw !== "") errors.push({ field: field.name, message: "must be uploaded as a file (multipart/form-data)" });
      else if (uploaded.includes(field.name)) fileFields.add(field.name);
      else if (field.required) errors.push({ field: field.name, message: "is required (a file)" });
      continue;
    }
    const c = coerce(field, raw);
    if ("error" in c) errors.push({ field: field.name, message: c.error });
    else if ("absent" in c) {
      if (field.required) errors.push({ field: field.name, message: field.type === "boolean" ? "must be checked" : "is required" });
    } else data[field.name] = c.value;
  }
  if (errors.length > 0) throw fieldErrors(errors);
  return { data, fileFields };
}

/**
 * Validates a partial edit of stored values (PATCH of a submission): only the named fields; `null`
 * clears a field that is not required, and also a stored value of a field since removed from the
 * form (personal data can always be erased). File fields can only be cleared (`null`).
 */
export function validateSubmissionPatch(
  fields: readonly FormField[],
  patch: Record<string, unknown>,
  stored: Record<string, unknown> = {},
): { set: Record<string, unknown>; clear: string[] } {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const set = dataRecord();
  const clear: string[] = [];
  const errors: FieldError[] = [];
  for (const [name, raw] of Object.entries(patch)) {
    const field = byName.get(name);
    if (!field) {
      if (raw === null && Object.hasOwn(stored, name)) clear.push(name);
      else errors.push({ field: name, message: "is not a field of this form" });
      continue;
    }
    const c: Coerced = field.type === "file" && raw !== null ? { error: "files can only be removed (null) here" } : coerce(field, raw);
    if ("error" in c) errors.push({ field: name, message: c.error });
    else if ("absent" in c) {
      if (field.required) errors.push({ field: name, message: "is required and cannot be cleared" });
      else clear.push(name);
    } else set[name] = c.value;
  }
  if (errors.length > 0) throw fieldErrors(errors);
  return { set, clear };
}

/**
 * Whether a stored value is present and fits `field` exactly as stored (no coercion): the check of
 * spec 5.4.5 for a new or changed field. An unchecked box (false) counts as absent.
 *
 * @example
 * storedValueFits({ name: "n", type: "number" }, "42"); // { present: true, valid: false }
 */
export function storedValueFits(field: FormField, value: unknown): { present: boolean; valid: boolean } {
  if (value === undefined || value === null || value === "" || value === false) return { present: false, valid: true };
  if (field.type === "file") return { present: Array.isArray(value) && value.length > 0, valid: Array.isArray(value) && value.every(isFileMeta) };
  if (field.type === "boolean") return { present: true, valid: value === true };
  const c = coerce(field, value);
  const sameType = field.type === "number" ? typeof value === "number" : typeof value === "string";
  return { present: true, valid: sameType && "value" in c && c.value === value };
}

/** Stored row → values by field, with files grouped under their field. */
export function storedValues(data: Record<string, unknown>, files: readonly SubmissionFile[]): StoredValues {
  const out: StoredValues = dataRecord(data);
  for (const f of files) {
    const list = out[f.field];
    if (Array.isArray(list)) list.push(f);
    else out[f.field] = [f];
  }
  return out;
}

/** Why one stored row breaks a new definition; the first failing field only. */
export interface Violation {
  field: string;
  reason: "missing" | "invalid";
}

/** The first field of `checked` that `values` violates, or undefined. */
export function rowViolation(checked: readonly FormField[], values: StoredValues): Violation | undefined {
  for (const field of checked) {
    const fit = storedValueFits(field, own(values, field.name));
    if (field.required && !fit.present) return { field: field.name, reason: "missing" };
    if (fit.present && !fit.valid) return { field: field.name, reason: "invalid" };
  }
  return undefined;
}

/**
 * How many stored rows the change from `before` to `after` would violate (spec 5.4.5), and per field.
 *
 * @example
 * countViolations([], [{ name: "phone", type: "string", required: true }], [{}, { phone: "1" }]); // { rows: 1, byField: { phone: 1 } }
 */
export function countViolations(
  before: readonly FormField[],
  after: readonly FormField[],
  rows: Iterable<StoredValues>,
): { rows: number; byField: Record<string, number> } {
  const checked = fieldsToCheck(before, after);
  const byField = dataRecord<number>();
  let count = 0;
  if (checked.length === 0) return { rows: 0, byField };
  for (const values of rows) {
    const v = rowViolation(checked, values);
    if (!v) continue;
    count++;
    byField[v.field] = (byField[v.field] ?? 0) + 1;
  }
  return { rows: count, byField };
}

function coerce(field: FormField, raw: unknown): Coerced {
  if (raw === undefined || raw === null || raw === "") return { absent: true };
  switch (field.type) {
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw.trim()) : NaN;
      return Number.isFinite(n) ? { value: n } : { error: "must be a number" };
    }
    case "boolean": {
      if (typeof raw === "boolean") return raw ? { value: true } : { absent: true };
      const s = typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (TRUE.has(s)) return { value: true };
      return FALSE.has(s) ? { absent: true } : { error: "must be true or false" };
    }
    default:
      return typeof raw === "string" ? coerceText(field, raw) : { error: "must be text" };
  }
}

function coerceText(field: FormField, raw: string): Coerced {
  if (raw.includes("\0")) return { error: NUL_REFUSED };
  const max = maxLengthOf(field);
  if (max !== undefined && [...raw].length > max) return { error: `must be at most ${max} characters` };
  switch (field.type) {
    case "email":
      return EMAIL.test(raw.trim()) ? { value: raw.trim() } : { error: "must be an email address" };
    case "url":
      return isHttpUrl(raw.trim()) ? { value: raw.trim() } : { error: "must be an http(s) URL" };
    case "date":
      return DATE.test(raw) && !Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) && new Date(`${raw}T00:00:00Z`).toISOString().startsWith(raw)
        ? { value: raw }
        : { error: "must be a date (YYYY-MM-DD)" };
    case "select":
      return field.options!.includes(raw) ? { value: raw } : { error: `must be one of ${field.options!.map((o) => JSON.stringify(o)).join(", ")}` };
    default:
      return { value: raw };
  }
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function isFileMeta(v: unknown): boolean {
  return typeof v === "object" && v !== null && typeof (v as SubmissionFile).id === "string" && typeof (v as SubmissionFile).filename === "string";
}

function fieldErrors(errors: FieldError[]) {
  const first = errors[0]!;
  return badRequest(`${first.field}: ${first.message}`, { field: first.field, errors });
}
