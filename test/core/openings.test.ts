/** core/openings.ts: which collection and rule changes widen who reads entries. */
import { describe, expect, it } from "vitest";
import { admitsAccount, changesGate, opensCollection, type Exposure } from "../../src/core/openings.js";

const pub: Exposure = { access: "public", rule: null };
const priv: Exposure = { access: "private", rule: null };
const gatedA: Exposure = { access: "gated", rule: "a" };
const gatedB: Exposure = { access: "gated", rule: "b" };

describe("opensCollection", () => {
  it("a new collection opens when it is public or gated", () => {
    expect([pub, gatedA, priv].map((c) => opensCollection(undefined, c))).toEqual([true, true, false]);
  });

  it("private → gated/public, gated → public and gated → another rule open; closing never does", () => {
    expect(opensCollection(priv, pub)).toBe(true);
    expect(opensCollection(priv, gatedA)).toBe(true);
    expect(opensCollection(gatedA, pub)).toBe(true);
    expect(opensCollection(gatedA, gatedB)).toBe(true);
    expect(opensCollection(gatedA, gatedA)).toBe(false);
    expect(opensCollection(pub, gatedA)).toBe(false);
    expect(opensCollection(pub, priv)).toBe(false);
    expect(opensCollection(gatedA, priv)).toBe(false);
    expect(opensCollection(pub, pub)).toBe(false);
    expect(opensCollection(priv, priv)).toBe(false);
  });
});

describe("changesGate", () => {
  it("is true only for a different condition of a rule in use", () => {
    expect(changesGate(1, { signed_in: true }, { account: { field: "plan", eq: "pro" } })).toBe(true);
    expect(changesGate(1, { signed_in: true }, { signed_in: true })).toBe(false);
    expect(changesGate(0, { signed_in: true }, { account: { field: "plan", eq: "pro" } })).toBe(false);
  });
});

describe("admitsAccount", () => {
  it("is true for a new account and for changes a sign-in or a rule can use", () => {
    expect(admitsAccount({}, true)).toBe(true);
    for (const change of [{ password: "x" }, { email: "a@example.com" }, { emailVerified: true }, { attributes: {} }, { active: true }]) {
      expect(admitsAccount(change, false)).toBe(true);
    }
  });
  it("is false for deactivating, unverifying and empty changes", () => {
    expect(admitsAccount({ active: false }, false)).toBe(false);
    expect(admitsAccount({ emailVerified: false }, false)).toBe(false);
    expect(admitsAccount({}, false)).toBe(false);
  });
});
