/**
 * Rules (DESIGN §4.2): reusable named conditions over the account of an account session, used to
 * gate collections (spec 4.1, 5.6). The condition language:
 *
 * - `{"signed_in": true}`: any account session;
 * - `{"account": {"field": "<name>", "eq": v}}` / `{"account": {"field": "<name>", "in": [v, …]}}`:
 *   `email` or an attribute of the account equals v / one of the list (an array attribute matches
 *   when any element does; `email` compares case-insensitively and only once verified);
 * - `{"all": [c, …]}`, `{"any": [c, …]}`: every / some of the nested conditions.
 *
 * Validated on save with errors that name the path; evaluation never throws. Pure: no I/O.
 *
 * @example
 * const c = parseCondition({ any: [{ account: { field: "plan", in: ["pro", "team"] } }, { account: { field: "email", eq: "ceo@example.com" } }] });
 * evaluateRule(c, { id: "u1", email: "a@example.com", emailVerified: true, attributes: { plan: "pro" } }); // true
 */
import { z } from "zod";
import { badRequest } from "./errors.js";
import { issueToBadRequest } from "./body-schema.js";
import { NAME_RULES, nameRegExp } from "./names.js";

/** A value an account field is compared with. */
export type Scalar = string | number | boolean | null;

/** A parsed condition. */
export type Condition =
  | { signed_in: true }
  | { account: { field: string; eq: Scalar } }
  | { account: { field: string; in: Scalar[] } }
  | { all: Condition[] }
  | { any: Condition[] };

/**
 * The account a condition is evaluated against. Its email counts only once verified: anyone can
 * sign up under any address, so an unverified email is invisible to rules (`eq` fails).
 */
export interface RuleAccount {
  id: string;
  email: string;
  emailVerified: boolean;
  attributes: Record<string, unknown>;
}

/** Deepest nesting of all/any accepted on save. */
export const MAX_RULE_DEPTH = 8;
/** Most conditions (nodes) in one rule. */
export const MAX_RULE_NODES = 200;

const KINDS = ["signed_in", "account", "all", "any"] as const;
const scalar = z.union([z.string().max(1000), z.number().refine(Number.isFinite, "must be a finite number"), z.boolean(), z.null()]);
const accountSchema = z
  .strictObject({
    field: z.string().regex(nameRegExp(NAME_RULES.ruleField), `must be ${NAME_RULES.ruleField.hint}`),
    eq: scalar.optional(),
    in: z.array(scalar).min(1, "must list at least one value").max(100).optional(),
  })
  .superRefine((a, ctx) => {
    const has = (k: string) => Object.hasOwn(a, k);
    if (has("eq") === has("in")) ctx.addIssue({ code: "custom", path: [], message: "takes exactly one of eq or in" });
  });
const listSchema = z.array(z.unknown()).min(1, "must list at least one condition").max(50);
/**
 * A rule body `{name, condition}`. The condition is checked by {@link parseCondition} (recursive,
 * with depth and size limits, each error naming its path), so here it is any JSON object.
 */
export const ruleSchema = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100),
  condition: z.unknown().optional().meta({
    type: "object",
    description: "{signed_in: true}, {account: {field, eq | in}}, {all: [condition, …]} or {any: [condition, …]} (docs/identity.md)",
  }),
});

/**
 * Validates a rule body `{name, condition}`; throws 400 naming the path.
 *
 * @example
 * parseRule({ name: "members", condition: { signed_in: true } });
 */
export function parseRule(input: unknown): { name: string; condition: Condition } {
  const r = ruleSchema.safeParse(input);
  if (!r.success) throw fromZod(r.error, "");
  if (r.data.condition === undefined) throw badRequest("condition: is required", { field: "condition" });
  return { name: r.data.name, condition: parseCondition(r.data.condition) };
}

/**
 * Validates a condition; throws 400 whose message names the path (`condition.any.1.account.eq: …`).
 *
 * @example
 * parseCondition({ signed_in: false }); // throws 400 condition.signed_in: must be true
 */
export function parseCondition(input: unknown, path = "condition"): Condition {
  const nodes = { count: 0 };
  return parseNode(input, path, 1, nodes);
}

function parseNode(input: unknown, path: string, depth: number, nodes: { count: number }): Condition {
  if (++nodes.count > MAX_RULE_NODES) throw fail(path, `a rule holds at most ${MAX_RULE_NODES} conditions`);
  if (depth > MAX_RULE_DEPTH) throw fail(path, `conditions nest at most ${MAX_RULE_DEPTH} levels deep`);
  const keys = input && typeof input === "object" && !Array.isArray(input) ? Object.keys(input) : [];
  const kind = keys.length === 1 ? KINDS.find((k) => k === keys[0]) : undefined;
  if (!kind) throw fail(path, `must be an object with exactly one of ${KINDS.join(", ")}`);
  const value = (input as Record<string, unknown>)[kind];
  const at = `${path}.${kind}`;
  switch (kind) {
    case "signed_in":
      if (value !== true) throw fail(at, "must be true");
      return { signed_in: true };
    case "account": {
      const r = accountSchema.safeParse(value);
      if (!r.success) throw fromZod(r.error, at);
      const { field } = r.data;
      return Object.hasOwn(r.data, "eq") ? { account: { field, eq: r.data.eq ?? null } } : { account: { field, in: r.data.in! } };
    }
    case "all":
    case "any": {
      const r = listSchema.safeParse(value);
      if (!r.success) throw fromZod(r.error, at);
      const list = r.data.map((c, i) => parseNode(c, `${at}.${i}`, depth + 1, nodes));
      return kind === "all" ? { all: list } : { any: list };
    }
  }
}

/**
 * Whether `account` satisfies `condition`. Without an account nothing is satisfied.
 *
 * @example
 * evaluateRule({ signed_in: true }, undefined); // false
 */
export function evaluateRule(condition: Condition, account: RuleAccount | undefined): boolean {
  if (!account) return false;
  if ("signed_in" in condition) return true;
  if ("all" in condition) return condition.all.every((c) => evaluateRule(c, account));
  if ("any" in condition) return condition.any.some((c) => evaluateRule(c, account));
  const a = condition.account;
  const actual = a.field === "email" ? (account.emailVerified ? account.email : undefined) : Object.hasOwn(account.attributes, a.field) ? account.attributes[a.field] : undefined;
  const wanted: Scalar[] = "eq" in a ? [a.eq] : a.in;
  const values = Array.isArray(actual) ? actual : [actual];
  return values.some((v) => wanted.some((w) => same(a.field, v, w)));
}

function same(field: string, actual: unknown, wanted: Scalar): boolean {
  if (field === "email" && typeof actual === "string" && typeof wanted === "string") return actual.toLowerCase() === wanted.toLowerCase();
  return actual === wanted;
}

function fromZod(error: z.ZodError, prefix: string) {
  return issueToBadRequest(error, { prefix });
}

function fail(path: string, message: string) {
  return badRequest(path ? `${path}: ${message}` : message, path ? { field: path } : undefined);
}
