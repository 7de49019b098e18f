/**
 * Entry values validated against a collection definition: one zod schema per field, generated
 * from the definition, for a create (required fields present) or a patch (any subset). Errors
 * name the field. Pure.
 *
 * @example
 * parseEntryInput(def, { title: "Hi", _status: "published" }, "create");
 * // { values: { title: "Hi" }, status: "published" }
 */
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { badRequest } from "./errors.js";
import { findNul, NUL_REFUSED } from "./nul.js";
import { dataRecord } from "./records.js";
import { ENTRY_STATUSES, type EntryStatus } from "./events.js";
import { SYSTEM_FIELDS, type CollectionDefinition, type FieldDefinition } from "./collections.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
/**
 * The system fields of every entry as it is read (spec 2.5): a response shape for the OpenAPI
 * document (input never sets them: parseEntryInput refuses all but `_status`).
 */
export const entrySystemFieldsSchema = z.strictObject({
  id: z.uuid(),
  _status: z.enum(ENTRY_STATUSES),
  _published_at: z.iso.datetime().nullable().describe("Set when first published"),
  _created_by: z.string(),
  _created_at: z.iso.datetime(),
  _updated_at: z.iso.datetime(),
} satisfies Record<(typeof SYSTEM_FIELDS)[number], z.ZodType>);

/** Upper bound on ids in one many-to-many field; keeps a write's relation check to one query. */
export const MAX_RELATIONS = 500;

const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`),
});

/**
 * The zod schema of one field's value (never null: nullability is added per mode). datetime values
 * are normalized to ISO 8601 UTC with milliseconds, so they sort and compare as strings.
 */
export function fieldValueSchema(field: FieldDefinition): z.ZodType {
  switch (field.type) {
    case "string":
    case "text":
      return z.string(expected("a string")).refine((v) => !v.includes("\0"), NUL_REFUSED);
    case "number":
      return z.number(expected("a finite number"));
    case "boolean":
      return z.boolean(expected("true or false"));
    case "datetime":
      return z
        .string(expected("an ISO 8601 date-time string"))
        .refine((v) => ISO_DATE.test(v) && Number.isFinite(Date.parse(v)), "must be an ISO 8601 date-time, e.g. 2024-05-01T12:00:00.000Z")
        .transform((v) => new Date(v).toISOString());
    case "json":
      return z
        .unknown()
        .refine((v) => v !== undefined, "is required")
        .superRefine((v, ctx) => {
          const path = findNul(v);
          if (path) ctx.addIssue({ code: "custom", message: NUL_REFUSED, path });
        });
    case "media":
      return z.string(expected("a media id")).regex(UUID, "must be a media id (a UUID, as the upload returned it)");
    case "relation":
      return z.string(expected(`an entry id of ${field.collection}`)).regex(UUID, `must be an entry id (UUID) of ${field.collection}`);
    case "relations":
      return z
        .array(z.string().regex(UUID, `must contain entry ids (UUIDs) of ${field.collection}`), expected(`an array of entry ids of ${field.collection}`))
        .max(MAX_RELATIONS, `must hold at most ${MAX_RELATIONS} ids`)
        .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id")
        .refine((ids) => !field.required || ids.length > 0, "is required (at least one id)");
  }
}

/**
 * The schema of a create or patch body's user fields. Optional fields accept null (cleared);
 * a patch may omit anything but may not null a required field.
 */
export function entryValuesSchema(def: Pick<CollectionDefinition, "fields">, mode: "create" | "patch") {
  const shape: Record<string, z.ZodType> = {};
  for (const field of def.fields) {
    const base = fieldValueSchema(field);
    const value = field.required ? base : base.nullable();
    shape[field.name] = mode === "patch" || !field.required ? value.optional() : value;
  }
  return z.strictObject(shape);
}

/**
 * Building a collection's schema costs more than parsing a body with it, and every write of a
 * collection would build the same one: keep them by mode and field definitions (the whole
 * definition is the key, so a changed field gets a new schema; zod schemas are immutable).
 */
const valuesSchemas = new LRUCache<string, z.ZodType>({ max: 1000 });

function cachedValuesSchema(def: Pick<CollectionDefinition, "fields">, mode: "create" | "patch"): z.ZodType {
  const key = `${mode}:${JSON.stringify(def.fields)}`;
  let schema = valuesSchemas.get(key);
  if (!schema) valuesSchemas.set(key, (schema = entryValuesSchema(def, mode)));
  return schema;
}

/** A parsed create or patch body: user values (null = clear) and the requested status, if any. */
export interface EntryInput {
  /** Prototype-less (core/records.ts): only the fields the body set are keys. */
  values: Record<string, unknown>;
  status: EntryStatus | undefined;
}

/**
 * Splits `_status` off a body and validates the rest. System fields other than `_status` are
 * read-only and refused, so a mistaken write is never silently dropped.
 *
 * @example
 * parseEntryInput(def, { views: "x" }, "patch"); // throws 400 "views: must be a finite number"
 */
export function parseEntryInput(def: CollectionDefinition, body: Record<string, unknown>, mode: "create" | "patch"): EntryInput {
  // Without a prototype, an absent field named `constructor` or `toString` reads as absent.
  const rest = dataRecord(body);
  const _status = rest._status as EntryStatus | undefined;
  delete rest._status;
  if (_status !== undefined && _status !== "draft" && _status !== "published") {
    throw badRequest(`_status: must be "draft" or "published"`, { field: "_status" });
  }
  for (const key of Object.keys(rest)) {
    if ((SYSTEM_FIELDS as readonly string[]).includes(key)) throw badRequest(`${key}: is a read-only system field`, { field: key });
  }
  const result = cachedValuesSchema(def, mode).safeParse(rest);
  if (!result.success) {
    // An unknown name first: `titel` for `title` would otherwise be reported as "title: is required".
    const issue = result.error.issues.find((i) => i.code === "unrecognized_keys") ?? result.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0]!;
      const known = def.fields.map((f) => f.name).join(", ") || "none";
      throw badRequest(`${key}: unknown field of collection ${def.name} (fields: ${known})`, { field: key });
    }
    const field = String(issue.path[0] ?? "");
    const where = issue.path.length > 1 ? issue.path.join(".") : field;
    throw badRequest(`${where}: ${issue.message}`, { field });
  }
  return { values: dataRecord(result.data as Record<string, unknown>), status: _status };
}

/**
 * Whether a stored value (from `data` or, for relations, the id list) satisfies a field's
 * definition; used when a definition change is checked against stored entries.
 */
export function storedValueFits(field: FieldDefinition, value: unknown): { present: boolean; valid: boolean } {
  const present = field.type === "relations" ? Array.isArray(value) && value.length > 0 : value !== undefined && value !== null;
  if (!present) return { present, valid: true };
  return { present, valid: fieldValueSchema({ ...field, required: false }).safeParse(value).success };
}
