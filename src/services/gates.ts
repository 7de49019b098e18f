/**
 * Who may read a collection through the delivery API (spec 4.1, 5.3, 5.6). Public collections
 * need nothing; private ones a bearer API key holding entries:read; gated ones that, or an account
 * session satisfying the collection's rule (managed by services/rules.ts). A dashboard session (owner or
 * member) is never a delivery credential: the systems do not overlap (spec 5.1), and the
 * dashboard reads entries through its own routes.
 * Also the one check of changes that widen those readers (assertMayOpen).
 */
import { forbidden, missingGrant, unauthorized } from "../core/errors.js";
import { assertGrant } from "../core/grants.js";
import { assertHoldsGrant, type Actor, type Principal } from "../core/principal.js";
import { holdsGrantIn, inCollectionScope, outsideScope } from "../core/key-scope.js";
import { evaluateRule, type RuleAccount } from "../core/rules.js";
import type { StoredCollection } from "../storage/collections.js";
import type { ServiceContext } from "./context.js";

/**
 * The kinds of principal a private or gated collection's read accepts: keys, plus account
 * sessions when gated. Any other bearer (dashboard access or refresh token) is 401.
 *
 * @example
 * readerKinds({ access: "gated" }); // ["key", "account"]
 */
export function readerKinds(collection: Pick<StoredCollection, "access">): readonly Principal["kind"][] {
  return collection.access === "gated" ? GATED_READERS : PRIVATE_READERS;
}
// Constants: this runs on every read of a private or gated collection.
const GATED_READERS: readonly Principal["kind"][] = Object.freeze(["key", "account"]);
const PRIVATE_READERS: readonly Principal["kind"][] = Object.freeze(["key"]);

/**
 * Throws unless `principal` may read `collection` (private or gated). 401 without a credential or
 * with one the collection does not accept (readerKinds); 403 `Missing grant: entries:read` for a
 * key lacking it.
 */
export function assertCanRead(ctx: ServiceContext, collection: StoredCollection, principal: Principal | undefined): Promise<void> | undefined {
  if (!principal || !readerKinds(collection).includes(principal.kind)) throw unauthorized();
  if (collection.access === "gated") return evaluateGate(ctx, collection, principal);
  assertEntriesRead(principal, collection);
  return undefined;
}

/**
 * The gate of a gated collection (spec 4.1, 5.6; DESIGN §4.2). A key with entries:read always
 * passes. An account session passes when its account (as read with the session, so a changed
 * attribute counts on the next request) satisfies the collection's rule; otherwise 403 naming the
 * collection. A gated collection without a rule admits no account. A dashboard session is 401.
 *
 * @example
 * await evaluateGate(ctx, collection, principal); // throws 401/403, or returns
 */
export function evaluateGate(ctx: ServiceContext, collection: StoredCollection, principal: Principal | undefined): Promise<void> | undefined {
  if (!principal || principal.kind === "member") throw unauthorized();
  // A key is decided at once (undefined: nothing to wait for); only an account's rule may need the database.
  if (principal.kind !== "key") return accountGate(ctx, collection, principal);
  assertEntriesRead(principal, collection);
  return undefined;
}

async function accountGate(ctx: ServiceContext, collection: StoredCollection, principal: Extract<Principal, { kind: "account" }>): Promise<void> {
  const account = { id: principal.id, email: principal.email, emailVerified: principal.emailVerified, attributes: principal.attributes };
  if (await accountSatisfiesRule(ctx, collection.workspaceId, collection.rule, account)) return;
  throw forbidden(`Collection ${collection.name} is gated: this account does not satisfy its rule`, { collection: collection.name });
}

// Services and their callers name the actor of a change with these.
export { OPERATOR, type Actor } from "../core/principal.js";

/**
 * Whether an `expand` from `source` may read `target` through the delivery API: the target's own
 * readers, so a public list never leaks a private or gated collection. A public target (or the
 * source itself, already checked) needs nothing; otherwise the credential is read only now
 * (`principal`) and 403 names what is missing: `entries:read` (no credential, or one the target
 * does not accept, e.g. an account session into a private collection) or the gated collection
 * whose rule the account does not satisfy.
 */
export async function assertCanExpand(
  ctx: ServiceContext,
  source: StoredCollection,
  target: StoredCollection,
  principal: () => Principal | undefined | Promise<Principal | undefined>,
): Promise<void> {
  if (target.access === "public" || target.id === source.id) return;
  const p = await principal();
  if (!p || !readerKinds(target).includes(p.kind)) {
    const alt = target.access === "gated" ? " or an account session satisfying its rule" : "";
    throw forbidden(`expand: collection ${target.name} is ${target.access}; expanding into it needs an API key holding entries:read${alt}`, {
      grant: "entries:read",
      collection: target.name,
      parameter: "expand",
    });
  }
  if (target.access === "gated") return evaluateGate(ctx, target, p);
  assertEntriesRead(p, target, { parameter: "expand" });
}

/**
 * The one check of every change that widens who reads entries (core/openings.ts: opening a
 * collection, pointing it at another rule, changing a rule in use): it needs entries:read, so
 * collections:write or rules:write alone never reads entries by the back door (spec 5.4.3).
 * A key limited to some collections needs it for every collection the change opens
 * (`collections`: those names). 403 `Missing grant: entries:read`; owners and the operator bypass.
 */
export function assertMayOpen(actor: Actor, collections: readonly string[]): void {
  assertHoldsGrant(actor, "entries:read");
  // The plain refusal: a rule may gate collections whose names the key is not shown.
  if (!collections.every((name) => holdsGrantIn(actor, "entries:read", name))) throw missingGrant("entries:read");
}

/**
 * A key reading `collection` through the delivery API: entries:read, for that collection when the
 * key is limited to some (core/key-scope.ts): outside them, the refusal of a missing grant.
 */
function assertEntriesRead(principal: Principal, collection: StoredCollection, details?: Record<string, unknown>): void {
  // Only keys reach here (readerKinds); anything else holds no grant.
  assertGrant(principal.kind === "key" ? principal.grants : [], "entries:read");
  if (!inCollectionScope(principal, collection.name)) throw outsideScope("entries:read", collection.name, details);
}

/**
 * Whether `account` satisfies the rule `ruleId` of the workspace. A missing rule (or none named)
 * is satisfied by nobody: absent permission is never open access.
 */
async function accountSatisfiesRule(ctx: ServiceContext, workspaceId: string, ruleId: string | null, account: RuleAccount): Promise<boolean> {
  if (!ruleId) return false;
  const rule = await ctx.db.rules.get(workspaceId, ruleId);
  return rule !== undefined && evaluateRule(rule.condition, account);
}
