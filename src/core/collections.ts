/**
 * Collection definitions (DESIGN §4.2): a validated name, typed fields and an access mode. Pure.
 * Names and field names are identifiers checked here, so storage can rely on them; user field
 * names still never reach SQL text (they are bound as parameters, see storage/entry-query.ts).
 *
 * @example
 * parseCollectionDefinition({ name: "posts", access: "public", fields: [{ name: "title", type: "string", required: true }] });
 */
import { z } from "zod";
import { parseWithSchema } from "./body-schema.js";
import { badRequest } from "./errors.js";
import type { EventEntry } from "./events.js";
import { NAME_RULES, nameRegExp } from "./names.js";

/** Field types (DESIGN §4.2): relation is one-to-many (a column), relations many-to-many (a join table). */
export const FIELD_TYPES = ["string", "text", "number", "boolean", "datetime", "json", "media", "relation", "relations"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Access modes of a collection's delivery endpoints (spec 4.1). */
export const ACCESS_MODES = ["public", "private", "gated"] as const;
export type CollectionAccess = (typeof ACCESS_MODES)[number];

export { RESERVED_COLLECTION_NAMES, SYSTEM_FIELDS } from "./names.js";

const COLLECTION_NAME = nameRegExp(NAME_RULES.collection);
const FIELD_NAME = nameRegExp(NAME_RULES.collectionField);

/**
 * A user field's name: an identifier that no system key of an entry (spec 2.5: `id`, `_status`,
 * `_created_at`…) can collide with, now or later, so every name starting with `_` is refused
 * (`__proto__` among them), each refusal quoting the name. Names such as `constructor` are
 * ordinary: entries hold them as data (core/records.ts).
 */
const fieldNameSchema = z
  .string()
  .superRefine((name, ctx) => {
    const reserved = NAME_RULES.collectionField.reserved(name);
    if (reserved) ctx.addIssue({ code: "custom", message: reserved, input: name });
  })
  .regex(FIELD_NAME, `must be ${NAME_RULES.collectionField.hint}`);

/** One field of a collection definition: name, type, required, and a relation's target collection. */
export const collectionFieldSchema = z
  .strictObject({
    name: fieldNameSchema,
    type: z.enum(FIELD_TYPES),
    required: z.boolean().optional(),
    collection: z.string().regex(COLLECTION_NAME, "must name a collection").optional(),
  })
  .superRefine((f, ctx) => {
    const isRelation = f.type === "relation" || f.type === "relations";
    if (isRelation && !f.collection) ctx.addIssue({ code: "custom", path: ["collection"], message: `a ${f.type} field must name its target collection` });
    if (!isRelation && f.collection) ctx.addIssue({ code: "custom", path: ["collection"], message: `only relation and relations fields name a collection` });
  });

/** One field of a definition. */
export type FieldDefinition = z.infer<typeof collectionFieldSchema>;

/** The body of POST/PUT /api/dashboard/collections (rule: a rule id, only with access gated). */
export const collectionDefinitionSchema = z
  .strictObject({
    name: z
      .string()
      .regex(COLLECTION_NAME, `must be ${NAME_RULES.collection.hint}`)
      .superRefine((n, ctx) => {
        const reserved = NAME_RULES.collection.reserved(n);
        if (reserved) ctx.addIssue({ code: "custom", message: reserved, input: n });
      }),
    fields: z.array(collectionFieldSchema).max(200).default([]),
    access: z.enum(ACCESS_MODES).default("private"),
    rule: z.string().min(1).max(200).nullable().optional(),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: "custom", path: ["fields", i, "name"], message: `duplicate field ${f.name}` });
      seen.add(f.name);
    });
    if (d.rule && d.access !== "gated") ctx.addIssue({ code: "custom", path: ["rule"], message: "a rule applies only to a gated collection" });
  });

/** A validated collection definition. */
export interface CollectionDefinition {
  name: string;
  fields: FieldDefinition[];
  access: CollectionAccess;
  /** Rule id of a gated collection, or null. */
  rule: string | null;
}

/**
 * Validates a definition; throws 400 naming the offending path (e.g. `fields.1.type: …`).
 *
 * @example
 * parseCollectionDefinition({ name: "media" }); // throws 400 name: is reserved (a path under /api/v1/)
 */
export function parseCollectionDefinition(input: unknown): CollectionDefinition {
  const d = parseWithSchema(collectionDefinitionSchema, input);
  return { name: d.name, fields: d.fields, access: d.access, rule: d.rule ?? null };
}

/** True when `name` could be a collection (checked before any lookup). */
export function isCollectionName(name: string): boolean {
  return COLLECTION_NAME.test(name);
}

/** The many-to-many fields of a definition: stored in entry_relations, absent from events (spec 2.5). */
export function manyToManyFields(def: Pick<CollectionDefinition, "fields">): FieldDefinition[] {
  return def.fields.filter((f) => f.type === "relations");
}

/** What a definition change means for stored entries (see {@link planSchemaChange}). */
export interface SchemaChangePlan {
  /** Fields that disappear: their stored values are dropped in the same transaction. */
  removed: FieldDefinition[];
  /** Fields whose stored values must be checked against the new definition. */
  checked: { field: FieldDefinition; previous: FieldDefinition | undefined; requiredNow: boolean; typeChanged: boolean }[];
}

/**
 * Compares two definitions of one collection. A removed field is always fine; a field that is
 * new and required, that becomes required, or that changes type (or relation target) must be
 * checked against every stored entry (services/collections.ts refuses with 409).
 *
 * @example
 * planSchemaChange(before, { ...before, fields: [] }).removed; // every field of before
 */
export function planSchemaChange(before: CollectionDefinition, after: CollectionDefinition): SchemaChangePlan {
  const old = new Map(before.fields.map((f) => [f.name, f]));
  const next = new Set(after.fields.map((f) => f.name));
  const removed = before.fields.filter((f) => !next.has(f.name));
  const checked: SchemaChangePlan["checked"] = [];
  for (const field of after.fields) {
    const prev = old.get(field.name);
    const typeChanged = prev !== undefined && (prev.type !== field.type || prev.collection !== field.collection);
    const requiredNow = Boolean(field.required) && !(prev?.required && !typeChanged);
    if (typeChanged || requiredNow) checked.push({ field, previous: prev, requiredNow, typeChanged });
  }
  return { removed, checked };
}

/**
 * The entry as carried in content events (spec 2.5, 6.2): every key of the stored entry except
 * the many-to-many fields, which are absent as keys (not empty, not null). One-to-many stays.
 *
 * @example
 * toEventEntry(def, { id, title: "Hi", tags: ["…"], _status: "draft", … }); // no `tags` key
 */
export function toEventEntry(def: Pick<CollectionDefinition, "fields">, entry: EventEntry): EventEntry {
  const out: EventEntry = { ...entry };
  for (const f of def.fields) if (f.type === "relations") delete out[f.name];
  return out;
}

/**
 * One field change of `PATCH /api/dashboard/collections/{name}`: exactly one of add (a field
 * definition), rename (`{from, to}`) or remove (a field name).
 */
export type FieldChange = { add: FieldDefinition } | { rename: { from: string; to: string } } | { remove: string };

/** The body of PATCH /api/dashboard/collections/{name} (see {@link parseFieldChange}). */
export const fieldChangeSchema = z.union([
  z.strictObject({ add: collectionFieldSchema }),
  z.strictObject({ rename: z.strictObject({ from: z.string().min(1), to: collectionFieldSchema.shape.name }) }),
  z.strictObject({ remove: z.string().min(1) }),
]);

/**
 * Validates a PATCH body; throws 400 naming the path (`add.type: …`) or, for any other shape,
 * what the body must be.
 *
 * @example
 * parseFieldChange({ rename: { from: "title", to: "headline" } });
 */
export function parseFieldChange(input: unknown): FieldChange {
  const keys = input && typeof input === "object" && !Array.isArray(input) ? Object.keys(input) : [];
  if (keys.length !== 1 || !["add", "rename", "remove"].includes(keys[0]!)) {
    throw badRequest('body: expected exactly one of {"add": field}, {"rename": {"from", "to"}} or {"remove": "field"}');
  }
  const key = keys[0] as "add" | "rename" | "remove";
  // Validate against the one branch the key names, so the message is about that branch.
  const branch = fieldChangeSchema.options.find((o) => key in o.shape)!;
  const result = branch.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.join(".");
    throw badRequest(path ? `${path}: ${issue.message}` : issue.message, path ? { field: path } : undefined);
  }
  return result.data as FieldChange;
}

/**
 * The definition after one field change, and the rename (if any) that stored values must follow.
 * 400 for an unknown field or a name already taken (a rename keeps the field's position).
 *
 * @example
 * applyFieldChange(def, { remove: "label" }).definition.fields; // def.fields without label
 */
export function applyFieldChange(def: CollectionDefinition, change: FieldChange): { definition: CollectionDefinition; renamed?: { from: string; to: string } } {
  const has = (name: string) => def.fields.some((f) => f.name === name);
  const unknown = (path: string, name: string) =>
    badRequest(`${path}: unknown field ${name} of collection ${def.name} (fields: ${def.fields.map((f) => f.name).join(", ") || "none"})`, { field: path });
  if ("add" in change) {
    if (has(change.add.name)) throw badRequest(`add.name: collection ${def.name} already has a field ${change.add.name}`, { field: "add.name" });
    return { definition: { ...def, fields: [...def.fields, change.add] } };
  }
  if ("rename" in change) {
    const { from, to } = change.rename;
    if (!has(from)) throw unknown("rename.from", from);
    if (from === to) throw badRequest("rename.to: is the field's current name", { field: "rename.to" });
    if (has(to)) throw badRequest(`rename.to: collection ${def.name} already has a field ${to}`, { field: "rename.to" });
    return { definition: { ...def, fields: def.fields.map((f) => (f.name === from ? { ...f, name: to } : f)) }, renamed: { from, to } };
  }
  if (!has(change.remove)) throw unknown("remove", change.remove);
  return { definition: { ...def, fields: def.fields.filter((f) => f.name !== change.remove) } };
}
