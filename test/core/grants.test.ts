import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  ALL_GRANTS,
  RESOURCES,
  assertGrant,
  expandGrants,
  hasGrant,
  isGrant,
  parseGrant,
  parseGrants,
  type Grant,
} from "../../src/core/grants.js";
import { isServiceError } from "../../src/core/errors.js";

const sorted = (s: Iterable<string>) => [...s].sort();
const subsetArb = fc.subarray([...ALL_GRANTS]);
const writes = ALL_GRANTS.filter((g) => g.endsWith(":write"));

/** Independent oracle: spec 5.4.2 written as a rule list, applied to a fixpoint. */
function oracle(held: readonly Grant[]): Set<Grant> {
  const out = new Set<Grant>(held);
  for (let changed = true; changed; ) {
    changed = false;
    for (const g of [...out]) {
      const [res, act] = g.split(":");
      const implied: string[] = [];
      if (act === "write") implied.push(`${res}:read`);
      if (res === "entries") implied.push("collections:read");
      if (res === "submissions") implied.push("forms:read");
      for (const i of implied) if (!out.has(i as Grant)) (out.add(i as Grant), (changed = true));
    }
  }
  return out;
}

/** Every subset of ALL_GRANTS (2^16 = 65,536). */
function* allSubsets(): Generator<Grant[]> {
  for (let mask = 0; mask < 1 << ALL_GRANTS.length; mask++) {
    yield ALL_GRANTS.filter((_, i) => mask & (1 << i));
  }
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("grant vocabulary (spec 2.2)", () => {
  it("has eight resources, two actions, sixteen grants", () => {
    expect([...RESOURCES]).toEqual(["collections", "entries", "media", "forms", "submissions", "users", "rules", "sites"]);
    expect([...ACTIONS]).toEqual(["read", "write"]);
    expect(ALL_GRANTS).toHaveLength(16);
    expect(new Set(ALL_GRANTS).size).toBe(16);
    expect(ALL_GRANTS).toContain("submissions:write");
    expect(Object.isFrozen(ALL_GRANTS)).toBe(true);
  });

  it.each([
    ["entries:read", true],
    ["sites:write", true],
    ["Entries:read", false],
    ["entries:READ", false],
    [" entries:read", false],
    ["entries:read ", false],
    ["entries", false],
    ["entries:", false],
    [":read", false],
    ["entries:admin", false],
    ["webhooks:read", false],
    ["keys:write", false],
    ["entries:read:write", false],
    ["*:*", false],
    ["", false],
    [null, false],
    [undefined, false],
    [42, false],
    [["entries:read"], false],
  ])("isGrant(%j) = %s", (value, expected) => {
    expect(isGrant(value)).toBe(expected);
  });
});

describe("parseGrant / parseGrants", () => {
  it("returns a valid grant unchanged", () => {
    for (const g of ALL_GRANTS) expect(parseGrant(g)).toBe(g);
  });

  it.each(["entries:admin", "ENTRIES:READ", "webhooks:read", "entries", ""])("rejects %j with a 400 naming it", (bad) => {
    const err = thrown(() => parseGrant(bad));
    expect(isServiceError(err)).toBe(true);
    expect(err).toMatchObject({ status: 400, code: "bad_request" });
    const message = (err as Error).message;
    expect(message).toContain(JSON.stringify(bad));
    expect(message).toContain("<resource>:<action>");
    expect(message).toContain("submissions");
  });

  it("dedupes and sorts", () => {
    expect(parseGrants(["media:read", "entries:write", "media:read", "collections:read"])).toEqual([
      "collections:read",
      "entries:write",
      "media:read",
    ]);
    expect(parseGrants([])).toEqual([]);
    expect(parseGrants(undefined)).toEqual([]);
  });

  it("does not mutate its input", () => {
    const input = ["sites:write", "entries:read", "sites:write"];
    parseGrants(input);
    expect(input).toEqual(["sites:write", "entries:read", "sites:write"]);
  });

  it.each([
    [null, "grants must be an array"],
    ["entries:read", "grants must be an array"],
    [{ 0: "entries:read" }, "grants must be an array"],
    [["entries:read", 5], "grants[1] (5)"],
    [["entries:read", "media:admin"], 'grants[1] ("media:admin")'],
    [[null], "grants[0] (null)"],
    [[["entries:read"]], "grants[0] (an array)"],
  ])("rejects %j with a 400 naming the bad element", (input, fragment) => {
    const err = thrown(() => parseGrants(input));
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain(fragment);
  });

  it("round-trips any subset in any order with duplicates", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALL_GRANTS)), (list) => {
        expect(parseGrants(list)).toEqual([...new Set(list)].sort());
      }),
    );
  });
});

describe("expansion tables (spec 5.4)", () => {
  // Each held grant alone -> its exact effective set.
  it.each<[Grant, Grant[]]>([
    ["collections:read", ["collections:read"]],
    ["collections:write", ["collections:read", "collections:write"]],
    ["entries:read", ["collections:read", "entries:read"]],
    ["entries:write", ["collections:read", "entries:read", "entries:write"]],
    ["media:read", ["media:read"]],
    ["media:write", ["media:read", "media:write"]],
    ["forms:read", ["forms:read"]],
    ["forms:write", ["forms:read", "forms:write"]],
    ["submissions:read", ["forms:read", "submissions:read"]],
    ["submissions:write", ["forms:read", "submissions:read", "submissions:write"]],
    ["users:read", ["users:read"]],
    ["users:write", ["users:read", "users:write"]],
    ["rules:read", ["rules:read"]],
    ["rules:write", ["rules:read", "rules:write"]],
    ["sites:read", ["sites:read"]],
    ["sites:write", ["sites:read", "sites:write"]],
  ])("%s expands to exactly %j", (held, expected) => {
    expect(sorted(expandGrants([held]))).toEqual(sorted(expected));
    for (const g of ALL_GRANTS) expect(hasGrant([held], g)).toBe(expected.includes(g));
  });

  it("the table above covers every grant", () => {
    expect(ALL_GRANTS.every((g) => expandGrants([g]).has(g))).toBe(true);
  });

  it("5.4.1: an empty set grants nothing", () => {
    expect(expandGrants([]).size).toBe(0);
    for (const g of ALL_GRANTS) {
      expect(hasGrant([], g)).toBe(false);
      expect(() => assertGrant([], g)).toThrow(`Missing grant: ${g}`);
    }
  });

  it("5.4.3: no implication confers a write", () => {
    for (const held of ALL_GRANTS) {
      for (const w of writes) if (w !== held) expect(hasGrant([held], w)).toBe(false);
    }
    expect(hasGrant(["entries:write"], "collections:write")).toBe(false);
    expect(hasGrant(["submissions:write"], "forms:write")).toBe(false);
  });

  it("5.4.3: collections access implies nothing about entries", () => {
    const held: Grant[] = ["collections:read", "collections:write"];
    expect(hasGrant(held, "entries:read")).toBe(false);
    expect(hasGrant(held, "entries:write")).toBe(false);
  });

  it("5.4.4: forms access does not imply submissions:read; nothing but submissions grants does", () => {
    expect(hasGrant(["forms:read", "forms:write"], "submissions:read")).toBe(false);
    const others = ALL_GRANTS.filter((g) => !g.startsWith("submissions:"));
    expect(hasGrant(others, "submissions:read")).toBe(false);
    expect(expandGrants(others).has("submissions:read")).toBe(false);
  });

  it("read never implies write on the same resource", () => {
    for (const r of RESOURCES) expect(hasGrant([`${r}:read`], `${r}:write`)).toBe(false);
  });

  it("5.4.2: the stored set is not mutated (array or Set)", () => {
    const arr: Grant[] = ["entries:write", "submissions:read"];
    const set = new Set<Grant>(arr);
    const effective = expandGrants(set);
    expandGrants(arr);
    hasGrant(set, "forms:read");
    expect(arr).toEqual(["entries:write", "submissions:read"]);
    expect(sorted(set)).toEqual(["entries:write", "submissions:read"]);
    expect(effective).not.toBe(set);
    expect(effective.size).toBe(5);
  });

  it("strings that are not grants confer nothing", () => {
    const junk = ["admin:*", "*", "entries:*", "ENTRIES:WRITE"] as unknown as Grant[];
    expect(expandGrants(junk).size).toBe(0);
    expect(hasGrant(junk, "entries:read")).toBe(false);
    expect(hasGrant(["entries:read"], "entries:*" as Grant)).toBe(false);
  });

  it("assertGrant throws missingGrant naming the grant, and passes through implications", () => {
    const err = thrown(() => assertGrant(["forms:write"], "submissions:read"));
    expect(err).toMatchObject({ status: 403, code: "forbidden", details: { grant: "submissions:read" } });
    expect((err as Error).message).toBe("Missing grant: submissions:read");
    expect(() => assertGrant(["submissions:write"], "forms:read")).not.toThrow();
    expect(() => assertGrant(["entries:read"], "collections:read")).not.toThrow();
  });
});

describe("properties over subsets of ALL_GRANTS", () => {
  it("exhaustive: expansion equals the rule-list oracle and hasGrant agrees, for all 65,536 subsets", () => {
    let count = 0;
    for (const held of allSubsets()) {
      const effective = expandGrants(held);
      const expected = oracle(held);
      expect(effective.size).toBe(expected.size);
      for (const g of ALL_GRANTS) {
        const has = expected.has(g);
        if (effective.has(g) !== has || hasGrant(held, g) !== has) {
          throw new Error(`mismatch for ${JSON.stringify(held)} on ${g}`);
        }
      }
      count++;
    }
    expect(count).toBe(65536);
  });

  it("every write in the expansion was held", () => {
    fc.assert(
      fc.property(subsetArb, (held) => {
        for (const g of expandGrants(held)) if (g.endsWith(":write")) expect(held).toContain(g);
      }),
    );
  });

  it("every read in the expansion is held or justified by one of the three rules", () => {
    fc.assert(
      fc.property(subsetArb, (held) => {
        for (const g of expandGrants(held)) {
          if (held.includes(g) || g.endsWith(":write")) continue;
          const [res] = g.split(":");
          const justified =
            held.includes(`${res}:write` as Grant) ||
            (g === "collections:read" && held.some((h) => h.startsWith("entries:"))) ||
            (g === "forms:read" && held.some((h) => h.startsWith("submissions:")));
          expect(justified, `${g} from ${JSON.stringify(held)}`).toBe(true);
        }
      }),
    );
  });

  it("contains its input, is idempotent and monotone", () => {
    fc.assert(
      fc.property(subsetArb, subsetArb, (a, b) => {
        const ea = expandGrants(a);
        for (const g of a) expect(ea.has(g)).toBe(true);
        expect(sorted(expandGrants(ea))).toEqual(sorted(ea));
        const eab = expandGrants([...a, ...b]);
        for (const g of ea) expect(eab.has(g)).toBe(true);
        for (const g of expandGrants(b)) expect(eab.has(g)).toBe(true);
      }),
    );
  });

  it("entries and submissions grants appear only through their own resource", () => {
    fc.assert(
      fc.property(subsetArb, (held) => {
        const e = expandGrants(held);
        for (const res of ["entries", "submissions"] as const) {
          const any = held.some((h) => h.startsWith(`${res}:`));
          expect(e.has(`${res}:read`)).toBe(any);
        }
      }),
    );
  });

  it("hasGrant on the held set equals membership of the expansion, and does not mutate", () => {
    fc.assert(
      fc.property(subsetArb, fc.constantFrom(...ALL_GRANTS), (held, required) => {
        const copy = [...held];
        expect(hasGrant(held, required)).toBe(expandGrants(held).has(required));
        expect(hasGrant(expandGrants(held), required)).toBe(expandGrants(held).has(required));
        expect(held).toEqual(copy);
      }),
    );
  });
});

describe("contentsvc/grants entry", () => {
  it("exports exactly the public grant API", async () => {
    const mod = await import("../../src/grants.js");
    expect(Object.keys(mod).sort()).toEqual([
      "ACTIONS",
      "ALL_GRANTS",
      "RESOURCES",
      "assertGrant",
      "expandGrants",
      "hasGrant",
      "isGrant",
      "parseGrant",
      "parseGrants",
    ]);
    expect(mod.hasGrant).toBe(hasGrant);
  });
});
