/**
 * Form definitions (DESIGN §4.2, docs/forms.md): a URL-safe slug, a name, typed fields and the
 * honeypot field name; plus the schema-change check of spec 5.4.5 (which stored submissions a new
 * definition would violate). Pure: no I/O.
 *
 * @example
 * parseFormDefinition({ slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }] });
 */
import { z } from "zod";
import { parseWithSchema } from "./body-schema.js";
import { NAME_RULES, nameRegExp } from "./names.js";

/** Field types a form can hold. `file` values arrive only as multipart uploads. */
export const FORM_FIELD_TYPES = ["string", "text", "email", "url", "number", "boolean", "date", "select", "file"] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** The honeypot field name a form gets when none is chosen (Formspree's convention). */
export const DEFAULT_HONEYPOT = "_gotcha";

/** Default and ceiling of `max_length` per text-like type, in characters. */
export const MAX_LENGTH_DEFAULTS: Partial<Record<FormFieldType, number>> = { string: 1000, text: 10_000, email: 254, url: 2048 };
const MAX_LENGTH_CEILING = 100_000;

const SLUG = nameRegExp(NAME_RULES.formSlug);
const FIELD_NAME = nameRegExp(NAME_RULES.formField);
const HONEYPOT_NAME = nameRegExp(NAME_RULES.honeypot);
const TEXT_TYPES: ReadonlySet<FormFieldType> = new Set(["string", "text", "email", "url"]);

/** One field of a form definition. */
export const formFieldSchema = z
  .strictObject({
    name: z
      .string()
      .superRefine((n, ctx) => {
        const reserved = NAME_RULES.formField.reserved(n);
        if (reserved) ctx.addIssue({ code: "custom", message: reserved, input: n });
      })
      .regex(FIELD_NAME, `must be ${NAME_RULES.formField.hint}`),
    type: z.enum(FORM_FIELD_TYPES),
    label: z.string().max(200).optional(),
    required: z.boolean().optional(),
    options: z.array(z.string().min(1).max(200)).min(1).max(200).optional(),
    max_length: z.number().int().min(1).max(MAX_LENGTH_CEILING).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.type === "select" && !f.options) ctx.addIssue({ code: "custom", path: ["options"], message: "a select field lists its options" });
    if (f.type !== "select" && f.options) ctx.addIssue({ code: "custom", path: ["options"], message: "only select fields have options" });
    if (f.options && new Set(f.options).size !== f.options.length) ctx.addIssue({ code: "custom", path: ["options"], message: "options must be distinct" });
    if (f.max_length !== undefined && !TEXT_TYPES.has(f.type)) {
      ctx.addIssue({ code: "custom", path: ["max_length"], message: "only string, text, email and url fields have a max_length" });
    }
  });

/** One field of a form. */
export type FormField = z.infer<typeof formFieldSchema>;

/** The body of POST and PUT /api/dashboard/forms. */
export const formDefinitionSchema = z
  .strictObject({
    slug: z.string().regex(SLUG, `must be ${NAME_RULES.formSlug.hint}`),
    name: z.string().trim().min(1, "must not be empty").max(200),
    fields: z.array(formFieldSchema).max(100).default([]),
    honeypot: z
      .string()
      .superRefine((n, ctx) => {
        const reserved = NAME_RULES.honeypot.reserved(n);
        if (reserved) ctx.addIssue({ code: "custom", message: reserved, input: n });
      })
      .regex(HONEYPOT_NAME, `must be ${NAME_RULES.honeypot.hint}`)
      .default(DEFAULT_HONEYPOT),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.fields.forEach((f, i) => {
      if (seen.has(f.name)) ctx.addIssue({ code: "custom", path: ["fields", i, "name"], message: `duplicate field ${f.name}` });
      if (f.name === d.honeypot) ctx.addIssue({ code: "custom", path: ["fields", i, "name"], message: `${f.name} is the honeypot field` });
      seen.add(f.name);
    });
  });

/** A validated form definition. */
export interface FormDefinition {
  slug: string;
  name: string;
  fields: FormField[];
  honeypot: string;
}

/**
 * Validates a definition body; throws 400 naming the offending path (`fields.0.type: …`).
 *
 * @example
 * parseFormDefinition({ slug: "Contact Us", name: "x" }); // throws 400 slug: must be 1-64 lowercase …
 */
export function parseFormDefinition(input: unknown): FormDefinition {
  return parseWithSchema(formDefinitionSchema, input);
}

/** True when `slug` could name a form (checked before any lookup). @example isFormSlug("contact"); // true */
export function isFormSlug(slug: string): boolean {
  return SLUG.test(slug);
}

/** The effective max length of a text-like field, or undefined for other types. */
export function maxLengthOf(field: FormField): number | undefined {
  return TEXT_TYPES.has(field.type) ? (field.max_length ?? MAX_LENGTH_DEFAULTS[field.type]) : undefined;
}

/**
 * The fields of `after` whose stored values must be re-checked (spec 5.4.5): new fields (a removed
 * field's values stay stored and may clash with a new field of that name), type changes, a field
 * that became required, removed select options, a lower max length. Empty: no scan is needed.
 *
 * @example
 * fieldsToCheck([{ name: "a", type: "string" }], [{ name: "a", type: "string", required: true }]); // [the new "a"]
 */
export function fieldsToCheck(before: readonly FormField[], after: readonly FormField[]): FormField[] {
  const old = new Map(before.map((f) => [f.name, f]));
  return after.filter((f) => {
    const prev = old.get(f.name);
    if (!prev || prev.type !== f.type) return true;
    if (f.required && !prev.required) return true;
    if (prev.options && f.options && prev.options.some((o) => !f.options!.includes(o))) return true;
    const [was, now] = [maxLengthOf(prev), maxLengthOf(f)];
    return was !== undefined && now !== undefined && now < was;
  });
}

/**
 * The fields of `after` that narrow what `before` accepted, judged from the two definitions alone
 * (never from stored data, so the answer leaks nothing submitted): a new field that is required,
 * or whose name a removed field's stored values may still use (`retired`, or any name when the
 * history is unknown: null); a type change (except text-like → string/text with no lower limit);
 * a field made required; a removed select option; a lower max length. Without submissions:read a
 * form holding submissions refuses every such change (spec 5.4.5; docs/forms.md).
 *
 * @example
 * narrowedFields([{ name: "a", type: "string" }], [{ name: "a", type: "string", max_length: 14 }], []); // ["a"]
 */
export function narrowedFields(before: readonly FormField[], after: readonly FormField[], retired: readonly string[] | null): string[] {
  const old = new Map(before.map((f) => [f.name, f]));
  return after
    .filter((f) => {
      const prev = old.get(f.name);
      if (!prev) return f.required === true || retired === null || retired.includes(f.name);
      const [was, now] = [maxLengthOf(prev), maxLengthOf(f)];
      if (prev.type !== f.type && !(was !== undefined && now !== undefined && (f.type === "string" || f.type === "text"))) return true;
      if (f.required && !prev.required) return true;
      if (prev.options && f.options && prev.options.some((o) => !f.options!.includes(o))) return true;
      return was !== undefined && now !== undefined && now < was;
    })
    .map((f) => f.name)
    .sort();
}
