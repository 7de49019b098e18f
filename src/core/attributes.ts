/**
 * End-user attributes: the small JSON object rules compare against (DESIGN §4.2). Flat: each
 * value a scalar or a list of scalars (an array attribute matches a rule when any element does).
 * `email` is not an attribute: rules read it from the account itself. Pure.
 *
 * @example
 * parseAttributes({ plan: "pro", roles: ["editor"] }); // same object, validated
 */
import { z } from "zod";
import { badRequest } from "./errors.js";
import { checkedBy, parseWithSchema } from "./body-schema.js";
import { NAME_RULES, nameRegExp } from "./names.js";
import { dataRecord, isPrototypeKey } from "./records.js";

const scalar = z.union([z.string().max(1000), z.number().refine(Number.isFinite, "must be a finite number"), z.boolean(), z.null()]);
const schema = z
  .record(
    z
      .string()
      // The names a rule can compare (NAME_RULES.ruleField), worded for the attributes themselves.
      .regex(nameRegExp(NAME_RULES.ruleField), "attribute names are 1-64 letters, digits, _ or -")
      .refine((k) => k !== "email", "email is the account's own field, not an attribute"),
    z.union([scalar, z.array(scalar).max(100)]),
  )
  .refine((o) => Object.keys(o).length <= 50, "at most 50 attributes");

/**
 * Validates attributes; throws 400 naming the attribute (`attributes.plan: …`).
 *
 * @example
 * parseAttributes({ email: "x" }); // throws 400 attributes.email: email is the account's own field …
 */
export function parseAttributes(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== "object" || Array.isArray(input)) throw badRequest("attributes: must be an object", { field: "attributes" });
  // zod skips a `__proto__` key of a record silently; it is refused instead, named.
  if (Object.keys(input).some(isPrototypeKey)) throw badRequest("attributes.__proto__: __proto__ is reserved: choose another attribute name", { field: "attributes.__proto__" });
  // Attribute names are the user's: the result reads only its own keys (core/records.ts).
  return dataRecord(parseWithSchema(schema, dataRecord(input as Record<string, unknown>), { prefix: "attributes" }));
}

/** Attributes as a body sends them: an object; each name and value is checked by {@link parseAttributes}. */
export const attributesBodySchema = z
  .record(z.string(), z.unknown(), { error: "attributes: must be an object" })
  .transform(checkedBy(parseAttributes))
  .meta({ description: "Flat: each value a string, number, boolean, null or a list of them; at most 50; not email" });
