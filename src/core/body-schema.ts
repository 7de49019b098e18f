/**
 * The one adapter from a zod failure to our 400: the first issue becomes `badRequest(message,
 * {field})`. Request bodies are described by zod schemas in core (the schema is the rule, and
 * the OpenAPI document shows the same schema); semantic checks beyond shape run after parsing.
 *
 * @example
 * const body = parseWithSchema(keyBodySchema, input, { named: true });
 */
import { z } from "zod";
import { badRequest, isServiceError, type ServiceError } from "./errors.js";

export interface IssueOptions {
  /** Path segment(s) in front of the issue's path, e.g. `attributes`. */
  prefix?: string;
  /**
   * The schema's messages name their field themselves ("active must be true or false"): the
   * message is used as is and `field` is the top-level body field the issue is about.
   */
  named?: boolean;
  /** The field to report whatever the issue's path (a schema for one field parsed alone). */
  field?: string;
}

/** The first issue of a zod failure as a 400: `path: message` naming the field, or as `named`. */
export function issueToBadRequest(error: z.ZodError, options: IssueOptions = {}): ServiceError {
  const first = error.issues[0]!;
  // A record's key refused by its own check: zod reports "Invalid key in record" and keeps the
  // check's message inside; that message is the one that says what is wrong.
  const issue = first.code === "invalid_key" && first.issues[0] ? { ...first.issues[0], path: [...first.path, ...first.issues[0].path] } : first;
  // A semantic check's own refusal (checkedBy) keeps its message and details.
  if (issue.code === "custom" && issue.params?.refusal) return issue.params.refusal as ServiceError;
  const segments = [options.prefix, ...issue.path.map(String)].filter((s): s is string => Boolean(s));
  if (options.named || options.field) {
    const field = options.field ?? segments[0];
    return badRequest(issue.message, field ? { field } : undefined);
  }
  const path = segments.join(".");
  return badRequest(path ? `${path}: ${issue.message}` : issue.message, path ? { field: path } : undefined);
}

/** Parses with the schema or throws the 400 of its first issue (see {@link issueToBadRequest}). */
export function parseWithSchema<S extends z.ZodType>(schema: S, input: unknown, options?: IssueOptions): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw issueToBadRequest(result.error, options);
  return result.data;
}

/** A true/false body field whose refusal names it: `active must be true or false`. */
export const booleanField = (name: string) => z.boolean({ error: `${name} must be true or false` });

/** The fields a body schema takes, in order: the list an unknown-field message names. */
export const fieldsOf = (schema: z.ZodObject): string[] => Object.keys(schema.shape);

/**
 * A semantic check (one that goes beyond shape: an email's form, a password's length in code
 * points, the grant syntax) run as a zod transform: its 400 becomes the schema's issue, so the
 * first refusal in field order wins and keeps its message and details.
 *
 * @example
 * const emailSchema = z.string({ error: "email must be a valid email address" }).transform(checkedBy(normalizeEmail));
 */
export function checkedBy<I, O>(check: (value: I) => O): (value: I, ctx: z.RefinementCtx) => O {
  return (value, ctx) => {
    try {
      return check(value);
    } catch (error) {
      if (!isServiceError(error) || error.status !== 400) throw error;
      ctx.addIssue({ code: "custom", message: error.message, params: { refusal: error }, input: value });
      return z.NEVER;
    }
  };
}
