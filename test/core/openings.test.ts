/** core/openings.ts: which collection and rule changes widen who reads entries. */
import { describe, expect, it } from "vitest";
import { changesGate, opensCollection, type Exposure } from "../../src/core/openings.js";

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
