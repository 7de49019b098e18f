/**
 * The rule language (DESIGN §4.2): validation with errors naming the path, and the evaluator
 * against an independent oracle (fast-check) plus a table of cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../../src/core/errors.js";
import { evaluateRule, MAX_RULE_DEPTH, parseCondition, parseRule, type Condition, type RuleAccount, type Scalar } from "../../src/core/rules.js";

const ada: RuleAccount = { id: "u1", email: "ada@example.com", emailVerified: true, attributes: { plan: "pro", roles: ["editor", "admin"], age: 36, beta: true, note: null } };

const refusal = (input: unknown) => {
  try {
    parseCondition(input);
  } catch (error) {
    expect(isServiceError(error) && error.status).toBe(400);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("parseCondition", () => {
  it.each([
    [{ signed_in: true }],
    [{ account: { field: "plan", eq: "pro" } }],
    [{ account: { field: "note", eq: null } }],
    [{ account: { field: "email", in: ["a@example.com", "b@example.com"] } }],
    [{ all: [{ signed_in: true }, { any: [{ account: { field: "age", eq: 36 } }, { account: { field: "beta", eq: true } }] }] }],
  ])("accepts %j unchanged", (c) => {
    expect(parseCondition(c)).toEqual(c);
  });

  it.each([
    [null, "condition: must be an object with exactly one of signed_in, account, all, any"],
    [{}, "condition: must be an object with exactly one of signed_in, account, all, any"],
    [{ signed_in: true, any: [] }, "condition: must be an object with exactly one of signed_in, account, all, any"],
    [{ nope: 1 }, "condition: must be an object with exactly one of signed_in, account, all, any"],
    [{ signed_in: false }, "condition.signed_in: must be true"],
    [{ account: { field: "plan" } }, "condition.account: takes exactly one of eq or in"],
    [{ account: { field: "plan", eq: 1, in: [1] } }, "condition.account: takes exactly one of eq or in"],
    [{ account: { field: "plan", in: [] } }, "condition.account.in: must list at least one value"],
    [{ account: { field: "a b", eq: 1 } }, "condition.account.field: must be an attribute name or email (letters, digits, _ and -)"],
    [{ account: { field: "plan", eq: { $ne: 1 } } }],
    [{ account: { field: "plan", eq: 1, op: "gt" } }],
    [{ all: [] }, "condition.all: must list at least one condition"],
    [{ any: [{ signed_in: true }, { signed_in: 1 }] }, "condition.any.1.signed_in: must be true"],
  ])("refuses %j naming the path", (c, message?: string) => {
    const m = refusal(c);
    if (message) expect(m).toBe(message);
    else expect(m).toMatch(/^condition\.account/);
  });

  it(`refuses nesting deeper than ${MAX_RULE_DEPTH}`, () => {
    let c: unknown = { signed_in: true };
    for (let i = 0; i < MAX_RULE_DEPTH - 1; i++) c = { all: [c] };
    expect(() => parseCondition(c)).not.toThrow();
    expect(refusal({ any: [c] })).toMatch(/nest at most 8 levels/);
  });

  it("refuses too many conditions", () => {
    const wide = { any: Array.from({ length: 50 }, () => ({ all: Array.from({ length: 5 }, () => ({ signed_in: true })) })) };
    expect(refusal(wide)).toMatch(/at most 200 conditions/);
  });

  it("parseRule requires a name and a condition", () => {
    expect(parseRule({ name: " members ", condition: { signed_in: true } })).toEqual({ name: "members", condition: { signed_in: true } });
    expect(() => parseRule({ name: "x" })).toThrow("condition: is required");
    expect(() => parseRule({ name: "", condition: { signed_in: true } })).toThrow("name: must not be empty");
    expect(() => parseRule({ name: "x", condition: { signed_in: true }, extra: 1 })).toThrow();
  });
});

describe("evaluateRule", () => {
  it.each<[Condition, RuleAccount | undefined, boolean]>([
    [{ signed_in: true }, ada, true],
    [{ signed_in: true }, undefined, false],
    [{ account: { field: "plan", eq: "pro" } }, ada, true],
    [{ account: { field: "plan", eq: "free" } }, ada, false],
    [{ account: { field: "plan", in: ["free", "pro"] } }, ada, true],
    [{ account: { field: "roles", eq: "admin" } }, ada, true], // array attribute: any element
    [{ account: { field: "roles", in: ["owner", "editor"] } }, ada, true],
    [{ account: { field: "roles", eq: "owner" } }, ada, false],
    [{ account: { field: "age", eq: "36" } }, ada, false], // no coercion
    [{ account: { field: "age", eq: 36 } }, ada, true],
    [{ account: { field: "beta", eq: true } }, ada, true],
    [{ account: { field: "note", eq: null } }, ada, true],
    [{ account: { field: "missing", eq: null } }, ada, false], // absent is not null
    [{ account: { field: "email", eq: "ADA@example.com" } }, ada, true], // email: case-insensitive
    [{ account: { field: "email", eq: "ada@example.com" } }, { ...ada, emailVerified: false }, false], // an unverified email is invisible
    [{ account: { field: "email", in: ["ada@example.com"] } }, { ...ada, emailVerified: false }, false],
    [{ account: { field: "constructor", eq: null } }, ada, false], // own attributes only
    [{ all: [{ signed_in: true }, { account: { field: "plan", eq: "free" } }] }, ada, false],
    [{ any: [{ account: { field: "plan", eq: "free" } }, { account: { field: "beta", eq: true } }] }, ada, true],
    [{ any: [{ signed_in: true }] }, undefined, false],
  ])("%j for %j → %s", (c, account, expected) => {
    expect(evaluateRule(c, account)).toBe(expected);
  });

  // An independent oracle: the language written out again, plainly.
  const oracle = (c: Condition, a: RuleAccount | undefined): boolean => {
    if (!a) return false;
    if ("signed_in" in c) return true;
    if ("all" in c) return c.all.every((x) => oracle(x, a));
    if ("any" in c) return c.any.some((x) => oracle(x, a));
    const { field } = c.account;
    const list: Scalar[] = "eq" in c.account ? [c.account.eq] : c.account.in;
    const raw = field === "email" ? (a.emailVerified ? a.email : undefined) : Object.prototype.hasOwnProperty.call(a.attributes, field) ? a.attributes[field] : undefined;
    const values = Array.isArray(raw) ? raw : [raw];
    const eq = (x: unknown, y: Scalar) => (field === "email" && typeof x === "string" && typeof y === "string" ? x.toLowerCase() === y.toLowerCase() : x === y);
    return list.some((w) => values.some((v) => eq(v, w)));
  };

  const fields = ["plan", "roles", "age", "email"];
  const scalarArb = fc.oneof(fc.constantFrom<Scalar>("pro", "free", "admin", "a@x.io", "A@X.IO", 1, 2, true, false, null));
  const leafArb: fc.Arbitrary<Condition> = fc.oneof(
    fc.constant<Condition>({ signed_in: true }),
    fc.record({ field: fc.constantFrom(...fields), eq: scalarArb }).map((account): Condition => ({ account })),
    fc.record({ field: fc.constantFrom(...fields), in: fc.array(scalarArb, { minLength: 1, maxLength: 4 }) }).map((account): Condition => ({ account })),
  );
  const condArb: fc.Arbitrary<Condition> = fc.letrec<{ c: Condition }>((tie) => ({
    c: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leafArb,
      fc.array(tie("c"), { minLength: 1, maxLength: 3 }).map((all): Condition => ({ all })),
      fc.array(tie("c"), { minLength: 1, maxLength: 3 }).map((any): Condition => ({ any })),
    ),
  })).c;
  const accountArb = fc.option(
    fc.record({
      id: fc.uuid(),
      email: fc.constantFrom("a@x.io", "b@x.io"),
      emailVerified: fc.boolean(),
      attributes: fc.record(
        { plan: scalarArb, roles: fc.array(scalarArb, { maxLength: 3 }), age: fc.oneof(fc.integer({ min: 0, max: 3 }), scalarArb) },
        { requiredKeys: [] },
      ),
    }),
    { nil: undefined },
  );

  it("agrees with the oracle on random conditions and accounts", () => {
    fc.assert(fc.property(condArb, accountArb, (c, a) => evaluateRule(c, a) === oracle(c, a)), { numRuns: 2000 });
  });

  it("every generated condition within the limits round-trips through parseCondition", () => {
    fc.assert(
      fc.property(condArb, (c) => {
        const depth = (x: Condition): number => ("all" in x ? 1 + Math.max(...x.all.map(depth)) : "any" in x ? 1 + Math.max(...x.any.map(depth)) : 1);
        fc.pre(depth(c) <= MAX_RULE_DEPTH);
        expect(parseCondition(JSON.parse(JSON.stringify(c)))).toEqual(c);
      }),
    );
  });

  it("no account satisfies anything; all ⊆ any for the same children", () => {
    fc.assert(
      fc.property(fc.array(condArb, { minLength: 1, maxLength: 4 }), accountArb, (cs, a) => {
        expect(evaluateRule({ any: cs }, undefined)).toBe(false);
        if (evaluateRule({ all: cs }, a)) expect(evaluateRule({ any: cs }, a)).toBe(true);
      }),
    );
  });
});
