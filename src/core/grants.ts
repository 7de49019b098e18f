/**
 * Grants (spec 2.2 and 5.4): the 16 `<resource>:<action>` strings, their parsing, and the check
 * that a held set covers a required grant. The stored set is never rewritten; implications are
 * applied at check time only (spec 5.4.2). Pure: no I/O.
 *
 * @example
 * const held = parseGrants(["entries:write"]);
 * hasGrant(held, "collections:read"); // true (any grant on entries)
 * hasGrant(held, "collections:write"); // false (no implication confers a write)
 */
import { z } from "zod";
import { checkedBy, parseWithSchema } from "./body-schema.js";
import { badRequest, missingGrant } from "./errors.js";

/**
 * The eight resources a grant can name (spec 2.2).
 *
 * @example
 * RESOURCES.includes("entries"); // true
 */
export const RESOURCES = [
  "collections",
  "entries",
  "media",
  "forms",
  "submissions",
  "users",
  "rules",
  "sites",
] as const;

/**
 * The two actions a grant can name (spec 2.2).
 *
 * @example
 * ACTIONS; // ["read", "write"]
 */
export const ACTIONS = ["read", "write"] as const;

/** One of the eight resources. @example const r: Resource = "media"; */
export type Resource = (typeof RESOURCES)[number];

/** `read` or `write`. @example const a: Action = "read"; */
export type Action = (typeof ACTIONS)[number];

/** A grant string `<resource>:<action>`. @example const g: Grant = "entries:read"; */
export type Grant = `${Resource}:${Action}`;

/**
 * All 16 grants, resource by resource, read before write.
 *
 * @example
 * ALL_GRANTS.length; // 16
 */
export const ALL_GRANTS: readonly Grant[] = Object.freeze(
  RESOURCES.flatMap((r) => ACTIONS.map((a): Grant => `${r}:${a}`)),
);

const GRANT_SET: ReadonlySet<string> = new Set(ALL_GRANTS);
const VALID_FORM = `<resource>:<action> with resource one of ${RESOURCES.join(", ")} and action read or write`;

/**
 * True when `value` is exactly one of the 16 grant strings (case-sensitive, no whitespace).
 *
 * @example
 * isGrant("media:write"); // true
 * isGrant("Media:Write"); // false
 */
export function isGrant(value: unknown): value is Grant {
  return typeof value === "string" && GRANT_SET.has(value);
}

/**
 * Validates one grant string; throws a 400 naming the bad value and the valid form.
 *
 * @example
 * parseGrant("rules:read"); // "rules:read"
 * parseGrant("rules:admin"); // throws 400 Invalid grant "rules:admin": expected <resource>:<action> …
 */
export function parseGrant(s: string): Grant {
  if (isGrant(s)) return s;
  throw badRequest(`Invalid grant ${describe(s)}: expected ${VALID_FORM}`, { grant: s });
}

/**
 * Validates a list of grants (`undefined` means none), removes duplicates and sorts it.
 * Errors name the offending element by index.
 *
 * @example
 * parseGrants(["media:read", "entries:read", "media:read"]); // ["entries:read", "media:read"]
 * parseGrants(undefined); // []
 * parseGrants(["entries:read", 5]); // throws 400 Invalid grant at grants[1] (5): expected …
 */
export function parseGrants(input: unknown): Grant[] {
  if (input === undefined) return [];
  return parseWithSchema(grantsSchema, input, { field: "grants" });
}

const invalidGrantAt = (index: unknown, item: unknown) => `Invalid grant at grants[${String(index)}] (${describe(item)}): expected ${VALID_FORM}`;

/**
 * A grants list as a body sends it: an array of grant strings. The grant syntax is checked on
 * each string; the result is deduplicated and sorted.
 */
export const grantsSchema = z
  .array(z.string({ error: (issue) => invalidGrantAt(issue.path?.at(-1), issue.input) }), {
    error: (issue) => `grants must be an array of grant strings (${VALID_FORM}), got ${describe(issue.input)}`,
  })
  .transform(
    checkedBy((items) => {
      items.forEach((item, i) => {
        if (!isGrant(item)) throw badRequest(invalidGrantAt(i, item), { field: `grants[${i}]` });
      });
      return [...new Set(items as Grant[])].sort();
    }),
  )
  .meta({ description: `Grant strings, ${VALID_FORM}` });

/**
 * The effective set of a held set: the held grants plus exactly the three implications of spec
 * 5.4.2 (write ⇒ read on the same resource; any entries grant ⇒ collections:read; any submissions
 * grant ⇒ forms:read). Never adds a write; the input is not mutated; strings that are not grants
 * confer nothing. One pass is a fixpoint: implied grants trigger no further implication.
 *
 * @example
 * [...expandGrants(["submissions:write"])].sort();
 * // ["forms:read", "submissions:read", "submissions:write"]
 */
export function expandGrants(grants: Iterable<Grant>): ReadonlySet<Grant> {
  const out = new Set<Grant>();
  for (const g of grants) {
    if (!isGrant(g)) continue;
    out.add(g);
    const [resource, action] = split(g);
    if (action === "write") out.add(`${resource}:read`);
    if (resource === "entries") out.add("collections:read");
    if (resource === "submissions") out.add("forms:read");
  }
  return out;
}

/**
 * True when the held grants, expanded per spec 5.4.2, include `required`. Allocation-free; an
 * invalid `required` is never held (default deny).
 *
 * @example
 * hasGrant(["entries:read"], "collections:read"); // true
 * hasGrant(["collections:write"], "entries:read"); // false
 */
export function hasGrant(grants: Iterable<Grant>, required: Grant): boolean {
  if (!isGrant(required)) return false;
  for (const g of grants) if (isGrant(g) && implies(g, required)) return true;
  return false;
}

/**
 * Throws `missingGrant(required)` (403, message names the grant) unless `hasGrant` holds.
 *
 * @example
 * assertGrant(key.grants, "entries:read"); // throws 403 "Missing grant: entries:read" if absent
 */
export function assertGrant(grants: Iterable<Grant>, required: Grant): void {
  if (!hasGrant(grants, required)) throw missingGrant(required);
}

/** Each grant's effective set, computed once from expandGrants so the implications live in one place. */
const CLOSURE: ReadonlyMap<Grant, ReadonlySet<Grant>> = new Map(ALL_GRANTS.map((g) => [g, expandGrants([g])]));

/** Whether holding `held` alone covers `required` (both valid grants); a lookup, no allocation. */
function implies(held: Grant, required: Grant): boolean {
  return CLOSURE.get(held)!.has(required);
}

function split(g: Grant): [Resource, Action] {
  const i = g.indexOf(":");
  return [g.slice(0, i) as Resource, g.slice(i + 1) as Action];
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/**
 * The grants a key created before the grant model receives on import (spec 5.4.6, 9.3): the old
 * model let any valid key read private content (entries:read) and call every MCP read tool —
 * list_collections/get_collection (collections:read), list_items/get_item (entries:read),
 * list_media (media:read), list_forms (forms:read), list_submissions (submissions:read). Nothing
 * more: no write, and no users/rules/sites read, which no old surface offered to keys.
 * collections:read and forms:read are implied already; they are stored explicitly so the stored
 * set documents itself. See docs/access.md.
 *
 * @example
 * hasGrant(LEGACY_KEY_GRANTS, "submissions:read"); // true
 */
export const LEGACY_KEY_GRANTS: readonly Grant[] = Object.freeze([
  "collections:read",
  "entries:read",
  "forms:read",
  "media:read",
  "submissions:read",
] as Grant[]);
