/**
 * The pure parts that read user-named keys: entry values, collection and form definitions, form
 * values and their schema-change check, attributes. A name Object.prototype also has is data;
 * `__proto__` and names shadowing an entry's system fields are refused, naming the field.
 */
import { describe, expect, it } from "vitest";
import { parseAttributes } from "../../src/core/attributes.js";
import { parseCollectionDefinition } from "../../src/core/collections.js";
import { parseEntryInput } from "../../src/core/entry-schema.js";
import { countViolations, storedValues, validateSubmission, validateSubmissionPatch } from "../../src/core/form-values.js";
import { parseFormDefinition, type FormField } from "../../src/core/forms.js";
import { resolveSignInLimits } from "../../src/core/sign-in-limits.js";

const NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty"];
const body = (json: string) => JSON.parse(json) as Record<string, unknown>;
const error = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { message: string; status: number; details?: Record<string, unknown> };
  }
  throw new Error("expected a refusal");
};

describe("entry values", () => {
  const def = parseCollectionDefinition({
    name: "protos",
    fields: [
      { name: "constructor", type: "string", required: true },
      { name: "toString", type: "string" },
      { name: "valueOf", type: "number" },
      { name: "hasOwnProperty", type: "boolean" },
    ],
  });

  it("optional fields named like Object.prototype's stay optional; the required one is required", () => {
    const { values } = parseEntryInput(def, body('{"constructor":"x"}'), "create");
    expect({ ...values }).toEqual({ constructor: "x" });
    for (const name of ["toString", "valueOf", "hasOwnProperty"]) expect(values[name]).toBeUndefined();
    expect(parseEntryInput(def, body("{}"), "patch").values.constructor).toBeUndefined();
    expect(error(() => parseEntryInput(def, body('{"toString":"y"}'), "create")).message).toBe("constructor: is required");
  });

  it("takes and types every one of them", () => {
    const input = parseEntryInput(def, body('{"constructor":"a","toString":"b","valueOf":1,"hasOwnProperty":false,"_status":"published"}'), "create");
    expect({ ...input.values }).toEqual({ constructor: "a", toString: "b", valueOf: 1, hasOwnProperty: false });
    expect(input.status).toBe("published");
    expect(error(() => parseEntryInput(def, body('{"constructor":"a","valueOf":"1"}'), "create")).message).toMatch(/^valueOf: must be a finite number/);
  });

  it("an own __proto__ key (as JSON.parse makes it) is an unknown field, named", () => {
    const e = error(() => parseEntryInput(def, body('{"constructor":"a","__proto__":{"x":1}}'), "create"));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/^__proto__: unknown field of collection protos/);
  });
});

describe("collection field names", () => {
  it("accepts names Object.prototype also has", () => {
    const def = parseCollectionDefinition({ name: "c", fields: NAMES.map((name) => ({ name, type: "string" })) });
    expect(def.fields.map((f) => f.name)).toEqual(NAMES);
  });

  it.each(["__proto__", "_status", "_created_at", "_anything", "id"])("refuses %s naming it", (name) => {
    const e = error(() => parseCollectionDefinition({ name: "c", fields: [{ name: "ok", type: "string" }, { name, type: "string" }] }));
    expect(e.status).toBe(400);
    expect(e.message).toContain(name);
    expect(e.details?.field).toBe("fields.1.name");
  });
});

describe("form values", () => {
  const fields: FormField[] = [
    { name: "constructor", type: "string", required: true },
    { name: "toString", type: "string" },
    { name: "valueOf", type: "number" },
  ];

  it("an absent optional field named toString is absent, from a plain object too", () => {
    expect({ ...validateSubmission(fields, body('{"constructor":"x"}')).data }).toEqual({ constructor: "x" });
    expect(error(() => validateSubmission(fields, body('{"toString":"x"}'))).message).toBe("constructor: is required");
    expect({ ...validateSubmissionPatch(fields, body('{"valueOf":"2"}')).set }).toEqual({ valueOf: 2 });
  });

  it("a new optional field of such a name fits stored rows without it; counts are per field", () => {
    const stored = [storedValues(body('{"constructor":"x"}'), []), storedValues(body("{}"), [])];
    expect(countViolations(fields.slice(0, 1), fields, stored)).toEqual({ rows: 0, byField: {} });
    const required: FormField[] = [...fields.slice(0, 2), { name: "valueOf", type: "number", required: true }];
    const counted = countViolations(fields, required, stored);
    expect(counted.rows).toBe(2);
    expect({ ...counted.byField }).toEqual({ valueOf: 2 });
  });

  it("form definitions take such names and refuse __proto__ and _ names, naming them", () => {
    expect(parseFormDefinition({ slug: "f", name: "F", fields: NAMES.map((name) => ({ name, type: "string" })) }).fields).toHaveLength(4);
    expect(error(() => parseFormDefinition({ slug: "f", name: "F", fields: [{ name: "__proto__", type: "string" }] })).message).toMatch(/^fields\.0\.name: "__proto__" is reserved/);
    expect(error(() => parseFormDefinition({ slug: "f", name: "F", honeypot: "__proto__" })).message).toMatch(/^honeypot: __proto__ is reserved/);
  });
});

describe("attributes", () => {
  it("takes names Object.prototype also has and refuses __proto__, naming it", () => {
    const attrs = parseAttributes(body('{"constructor":"staff","toString":"x","valueOf":1}'));
    expect({ ...attrs }).toEqual({ constructor: "staff", toString: "x", valueOf: 1 });
    expect(attrs.hasOwnProperty).toBeUndefined();
    const e = error(() => parseAttributes(body('{"__proto__":"x"}')));
    expect(e.message).toMatch(/^attributes\.__proto__: __proto__ is reserved/);
    expect(e.details?.field).toBe("attributes.__proto__");
  });

  it("a refused name says why (not zod's bare 'Invalid key in record'), naming the attribute", () => {
    const email = error(() => parseAttributes({ email: "x" }));
    expect(email.message).toBe("attributes.email: email is the account's own field, not an attribute");
    expect(email.details?.field).toBe("attributes.email");
    expect(error(() => parseAttributes({ "bad key": 1 })).message).toBe("attributes.bad key: attribute names are 1-64 letters, digits, _ or -");
  });
});

describe("sign-in limit options", () => {
  it("names Object.prototype has are not settings", () => {
    expect(() => resolveSignInLimits({ toString: 1 } as never)).toThrow(/signInLimits\.toString is not a setting/);
  });
});
