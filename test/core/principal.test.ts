import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../../src/core/errors.js";
import { ALL_GRANTS, hasGrant, type Grant } from "../../src/core/grants.js";
import { OPERATOR, assertHoldsGrant, bypassesGrants, holdsGrant, isOwner, type Actor } from "../../src/core/principal.js";

const base = { id: "p1", workspaceId: "w1" };
const key = (grants: Grant[]): Actor => ({ kind: "key", ...base, grants });
const member = (role: "owner" | "member", grants: Grant[]): Actor => ({ kind: "member", ...base, role, grants });
const account: Actor = { kind: "account", ...base, email: "a@example.com", emailVerified: true, attributes: { plan: "pro" } };
const grantsArb = fc.subarray([...ALL_GRANTS]);
const grantArb = fc.constantFrom(...ALL_GRANTS);

function refusal(fn: () => void): { status: number; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (!isServiceError(err)) throw err;
    return { status: err.status, message: err.message };
  }
}

describe("owners bypass grants (spec 5.5)", () => {
  it("an owner holds every grant, even with an empty set; so does the operator", () => {
    for (const grant of ALL_GRANTS) {
      expect(holdsGrant(member("owner", []), grant)).toBe(true);
      expect(holdsGrant(OPERATOR, grant)).toBe(true);
      expect(() => assertHoldsGrant(member("owner", []), grant)).not.toThrow();
    }
    expect(bypassesGrants(member("owner", []))).toBe(true);
    expect(bypassesGrants(OPERATOR)).toBe(true);
    expect(isOwner(member("owner", []))).toBe(true);
    // The operator bypasses grants but is no owner: owner-only routes stay a dashboard owner's.
    expect(isOwner(OPERATOR)).toBe(false);
  });

  it("members and keys hold exactly their grant set with the spec 5.4.2 implications", () => {
    fc.assert(
      fc.property(grantsArb, grantArb, (grants, grant) => {
        for (const actor of [member("member", grants), key(grants)]) {
          expect(bypassesGrants(actor)).toBe(false);
          expect(isOwner(actor)).toBe(false);
          expect(holdsGrant(actor, grant)).toBe(hasGrant(grants, grant));
          const refused = refusal(() => assertHoldsGrant(actor, grant));
          expect(refused).toEqual(hasGrant(grants, grant) ? undefined : { status: 403, message: `Missing grant: ${grant}` });
        }
      }),
    );
    expect(holdsGrant(member("member", ["entries:write"]), "collections:read")).toBe(true);
    expect(holdsGrant(key(["forms:read"]), "submissions:read")).toBe(false);
  });

  it("an account session carries no grants (spec 5.6); no principal is 401", () => {
    for (const grant of ALL_GRANTS) {
      expect(holdsGrant(account, grant)).toBe(false);
      expect(refusal(() => assertHoldsGrant(account, grant))).toEqual({ status: 403, message: `Missing grant: ${grant}` });
      expect(holdsGrant(undefined, grant)).toBe(false);
      expect(refusal(() => assertHoldsGrant(undefined, grant))).toEqual({ status: 401, message: "Unauthorized" });
    }
    expect(bypassesGrants(account)).toBe(false);
    expect(bypassesGrants(undefined)).toBe(false);
  });
});
