/**
 * Who is calling, once a credential was checked: an API key, a dashboard member or an account of the
 * workspace's Identity. A core notion: services decide with it (gates), http and h3 produce it.
 * Also the one home of "owners bypass grants" (spec 5.5): every grant check of a principal goes
 * through holdsGrant or assertHoldsGrant.
 */
import { missingGrant, unauthorized } from "./errors.js";
import { ALL_GRANTS, hasGrant, type Grant } from "./grants.js";

export type Principal =
  | {
      kind: "key";
      id: string;
      workspaceId: string;
      grants: readonly Grant[];
      /** The collections its collections/entries grants apply to (core/key-scope.ts); absent or null: all. */
      collections?: readonly string[] | null;
      /** Reads only published entries (core/key-scope.ts). */
      publishedOnly?: boolean;
    }
  | { kind: "member"; id: string; workspaceId: string; role: "owner" | "member"; grants: readonly Grant[] }
  | { kind: "account"; id: string; workspaceId: string; email: string; emailVerified: boolean; attributes: Record<string, unknown> };

/**
 * Who makes a management change: a principal of the request, or the local operator (the CLI,
 * which like an owner bypasses grants).
 */
export type Actor = Principal | { kind: "operator" };

/** The operator: what the CLI passes as the actor of its changes. */
export const OPERATOR: Actor = { kind: "operator" };

/**
 * A workspace owner (spec 5.5): the only one who may do the owner-only things.
 *
 * @example
 * isOwner({ kind: "member", role: "owner", … }); // true
 */
export function isOwner(actor: Actor | undefined): boolean {
  return actor?.kind === "member" && actor.role === "owner";
}

/**
 * Owners bypass the grant set (spec 5.5); so does the local operator, who holds the database.
 *
 * @example
 * bypassesGrants(OPERATOR); // true
 * bypassesGrants({ kind: "key", grants: [], … }); // false
 */
export function bypassesGrants(actor: Actor | undefined): boolean {
  return actor?.kind === "operator" || isOwner(actor);
}

/**
 * Whether `actor` may do what `grant` allows: a bypass, or the grant held (with the implications of
 * spec 5.4.2). Accounts carry no grants (spec 5.6); no actor holds nothing.
 *
 * @example
 * holdsGrant({ kind: "member", role: "member", grants: ["entries:write"], … }, "collections:read"); // true
 */
export function holdsGrant(actor: Actor | undefined, grant: Grant): boolean {
  if (!actor || actor.kind === "account") return false;
  return bypassesGrants(actor) || (actor.kind !== "operator" && hasGrant(actor.grants, grant));
}

/**
 * Every grant `actor` holds in effect, in ALL_GRANTS order: all 16 for a bypass, else those
 * {@link holdsGrant} finds (the stored set plus its implications). What a client draws from.
 *
 * @example
 * effectiveGrants({ kind: "member", role: "member", grants: ["submissions:write"], … });
 * // ["forms:read", "submissions:read", "submissions:write"]
 */
export function effectiveGrants(actor: Actor | undefined): Grant[] {
  return ALL_GRANTS.filter((grant) => holdsGrant(actor, grant));
}

/**
 * Throws unless `actor` holds `grant` (see {@link holdsGrant}): 401 without an actor, else 403
 * `Missing grant: <grant>`.
 *
 * @example
 * assertHoldsGrant(principal, "forms:write");
 */
export function assertHoldsGrant(actor: Actor | undefined, grant: Grant): void {
  if (!actor) throw unauthorized();
  if (!holdsGrant(actor, grant)) throw missingGrant(grant);
}
