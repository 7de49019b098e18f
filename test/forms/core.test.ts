/**
 * Pure form logic: definitions, coercion of submitted values (errors name the field), and the
 * schema-change check of spec 5.4.5. Property: whatever a submission stored fits the definition
 * it was submitted under, so an unchanged definition never counts a row as violating.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countViolations, storedValueFits, storedValues, validateSubmission } from "../../src/core/form-values.js";
import { fieldsToCheck, parseFormDefinition, type FormField } from "../../src/core/forms.js";

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
};

describe("parseFormDefinition", () => {
  it("defaults honeypot and fields", () => {
    expect(parseFormDefinition({ slug: "contact", name: "Contact" })).toEqual({ slug: "contact", name: "Contact", fields: [], honeypot: "_gotcha" });
  });

  it.each([
    [{ slug: "-x", name: "n" }, /^slug: /],
    [{ slug: "a/b", name: "n" }, /^slug: /],
    [{ slug: "ok", name: "" }, /^name: must not be empty/],
    [{ slug: "ok", name: "n", fields: [{ name: "a", type: "color" }] }, /^fields\.0\.type: /],
    [{ slug: "ok", name: "n", fields: [{ name: "a", type: "string", options: ["x"] }] }, /^fields\.0\.options: only select/],
    [{ slug: "ok", name: "n", fields: [{ name: "a", type: "select", options: ["x", "x"] }] }, /^fields\.0\.options: options must be distinct/],
    [{ slug: "ok", name: "n", fields: [{ name: "a", type: "number", max_length: 3 }] }, /^fields\.0\.max_length: /],
    [{ slug: "ok", name: "n", fields: [{ name: "a", type: "string" }, { name: "a", type: "text" }] }, /^fields\.1\.name: duplicate field a/],
    [{ slug: "ok", name: "n", honeypot: "trap", fields: [{ name: "trap", type: "string" }] }, /^fields\.0\.name: trap is the honeypot field/],
    [{ slug: "ok", name: "n", unknown: 1 }, /unknown|Unrecognized/i],
  ])("refuses %j", (input, pattern) => {
    expect(message(() => parseFormDefinition(input))).toMatch(pattern);
  });
});

describe("validateSubmission", () => {
  const fields = parseFormDefinition({
    slug: "f",
    name: "f",
    fields: [
      { name: "s", type: "string", max_length: 5 },
      { name: "n", type: "number" },
      { name: "b", type: "boolean" },
      { name: "d", type: "date" },
      { name: "u", type: "url" },
      { name: "sel", type: "select", options: ["a", "b"] },
      { name: "f", type: "file" },
    ],
  }).fields;

  it.each([
    [{ n: "3.5", b: "on", d: "2024-02-29", u: " https://x.io/a ", sel: "b" }, { n: 3.5, b: true, d: "2024-02-29", u: "https://x.io/a", sel: "b" }],
    [{ n: 7, b: false, s: "", other: "x" }, { n: 7 }],
    [{ b: "off" }, {}],
  ])("coerces %j", (values, data) => {
    expect(validateSubmission(fields, values).data).toEqual(data);
  });

  it.each([
    [{ s: "toolong" }, "s: must be at most 5 characters"],
    [{ s: 5 }, "s: must be text"],
    [{ n: "1e999" }, "n: must be a number"],
    [{ b: "maybe" }, "b: must be true or false"],
    [{ d: "2023-02-29" }, "d: must be a date (YYYY-MM-DD)"],
    [{ u: "javascript:alert(1)" }, "u: must be an http(s) URL"],
    [{ sel: "c" }, 'sel: must be one of "a", "b"'],
  ])("refuses %j", (values, expected) => {
    expect(message(() => validateSubmission(fields, values))).toBe(expected);
  });

  it("files: only on file fields, one each; required boolean must be checked", () => {
    expect(validateSubmission(fields, {}, ["f"]).fileFields).toEqual(new Set(["f"]));
    expect(message(() => validateSubmission(fields, {}, ["s"]))).toBe("s: is not a file field; send text, not a file");
    expect(message(() => validateSubmission(fields, {}, ["f", "f"]))).toBe("f: takes one file");
    const consent: FormField[] = [{ name: "ok", type: "boolean", required: true }];
    expect(message(() => validateSubmission(consent, { ok: "false" }))).toBe("ok: must be checked");
  });
});

describe("schema change check (spec 5.4.5)", () => {
  const base: FormField[] = [
    { name: "name", type: "string", required: true },
    { name: "plan", type: "select", options: ["free", "pro"] },
  ];

  it("checks nothing for an unchanged or relaxed definition", () => {
    expect(fieldsToCheck(base, base)).toEqual([]);
    expect(fieldsToCheck(base, [{ name: "name", type: "string" }, { name: "plan", type: "select", options: ["free", "pro", "team"] }])).toEqual([]);
  });

  it("counts violating rows per field", () => {
    const rows = [{ name: "a", plan: "pro" }, { name: "b", plan: "free" }, { name: "c" }];
    expect(countViolations(base, [base[0]!, { name: "plan", type: "select", options: ["free"] }], rows)).toEqual({ rows: 1, byField: { plan: 1 } });
    expect(countViolations(base, [...base, { name: "phone", type: "string", required: true }], rows)).toEqual({ rows: 3, byField: { phone: 3 } });
    expect(countViolations(base, [{ name: "name", type: "number", required: true }], rows).rows).toBe(3);
    expect(countViolations(base, [{ name: "name", type: "text", required: true }], rows).rows).toBe(0);
  });

  it("a file field's stored files fit it, and violate a type change", () => {
    const file = { id: "f1", field: "cv", filename: "cv.pdf", content_type: "application/pdf", size: 3 };
    const values = storedValues({}, [file]);
    expect(storedValueFits({ name: "cv", type: "file", required: true }, values.cv)).toEqual({ present: true, valid: true });
    expect(countViolations([{ name: "cv", type: "file" }], [{ name: "cv", type: "string" }], [values]).rows).toBe(1);
  });

  const fieldArb: fc.Arbitrary<FormField> = fc.oneof(
    fc.record({ name: fc.constant("v"), type: fc.constantFrom("string", "text", "email", "url", "number", "boolean", "date"), required: fc.boolean() }) as fc.Arbitrary<FormField>,
    fc.record({ name: fc.constant("v"), type: fc.constant("select"), options: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), required: fc.boolean() }) as fc.Arbitrary<FormField>,
  );
  const rawArb = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("on", "true", "a@b.co", "https://x.io", "2024-01-31", "42", " 7 "), fc.double(), fc.boolean(), fc.constant(null));

  it("whatever a submission stores fits the same definition (fast-check)", () => {
    fc.assert(
      fc.property(fieldArb, rawArb, fc.boolean(), (field, raw, pickOption) => {
        const value = field.type === "select" && pickOption ? field.options![0] : raw;
        let data: Record<string, unknown>;
        try {
          data = validateSubmission([field], { v: value }).data;
        } catch {
          return;
        }
        expect(countViolations([], [field], [data]).rows).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
});
