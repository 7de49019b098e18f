/**
 * Who may read a collection through the delivery API (spec 4.1, 5.3, 5.6). Public collections
 * need nothing; private ones a key (or dashboard session) holding entries:read; gated ones that,
 * or an account session satisfying the collection's rule (services/rules.ts). Also the one check
 * of changes that widen those readers (assertMayOpen).
 */
import { forbidden, unauthorized } from "../core/errors.js";
import { assertGrant } from "../core/grants.js";
import type { Principal } from "../http/access.js";
import type { StoredCollection } from "../storage/collections.js";
import type { ServiceContext } from "../service-context.js";
import { accountSatisfiesRule } from "./rules.js";

/**
 * Throws unless `principal` may read `collection` (private or gated). 401 without a credential;
 * 403 `Missing grant: entries:read` for a key or member lacking it (owners bypass, spec 5.5).
 */
export async function assertCanRead(ctx: ServiceContext, collection: StoredCollection, principal: Principal | undefined): Promise<void> {
  if (!principal) throw unauthorized();
  if (collection.access === "gated") return evaluateGate(ctx, collection, principal);
  assertEntriesRead(principal);
}

/**
 * The gate of a gated collection (spec 4.1, 5.6; DESIGN §4.2). A key or dashboard session with
 * entries:read always passes. An account session passes when its account (as read with the
 * session, so a changed attribute counts on the next request) satisfies the collection's rule;
 * otherwise 403 naming the collection. A gated collection without a rule admits no account.
 *
 * @example
 * await evaluateGate(ctx, collection, principal); // throws 401/403, or returns
 */
export async function evaluateGate(ctx: ServiceContext, collection: StoredCollection, principal: Principal | undefined): Promise<void> {
  if (!principal) throw unauthorized();
  if (principal.kind !== "account") return assertEntriesRead(principal);
  const account = { id: principal.id, email: principal.email, emailVerified: principal.emailVerified, attributes: principal.attributes };
  if (await accountSatisfiesRule(ctx, collection.workspaceId, collection.rule, account)) return;
  throw forbidden(`Collection ${collection.name} is gated: this account does not satisfy its rule`, { collection: collection.name });
}

/**
 * Who makes a management change: a principal of the request, or the local operator (the CLI,
 * which like an owner bypasses grants).
 */
export type Actor = Principal | { kind: "operator" };

/** The operator: what the CLI passes as the actor of its changes. */
export const OPERATOR: Actor = { kind: "operator" };

/**
 * The one check of every change that widens who reads entries (core/openings.ts: opening a
 * collection, pointing it at another rule, changing a rule in use): it needs entries:read, so
 * collections:write or rules:write alone never reads entries by the back door (spec 5.4.3).
 * 403 `Missing grant: entries:read`; owners and the operator bypass.
 */
export function assertMayOpen(actor: Actor): void {
  if (actor.kind !== "operator") assertEntriesRead(actor);
}

function assertEntriesRead(principal: Principal): void {
  if (principal.kind === "user" && principal.role === "owner") return;
  assertGrant(principal.kind === "account" ? [] : principal.grants, "entries:read");
}
