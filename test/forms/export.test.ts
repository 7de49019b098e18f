/**
 * Submission export cells (services/submission-export.ts): text a spreadsheet would run as a
 * formula gets a leading quote; everything else passes unchanged.
 */
import { describe, expect, it } from "vitest";
import { csvCell } from "../../src/services/submission-export.js";

describe("csvCell", () => {
  it("defuses text starting with = + - @ tab or carriage return", () => {
    for (const text of ["=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"http://x\")"]) expect(csvCell(text)).toBe(`'${text}`);
  });

  it("leaves other text, numbers and empty values as they are", () => {
    expect(csvCell("hello = world")).toBe("hello = world");
    expect(csvCell(" =1")).toBe(" =1");
    expect(csvCell("'quoted")).toBe("'quoted");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell(2.5)).toBe("2.5");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("writes lists and objects as JSON, defused like text", () => {
    expect(csvCell(["a", "b"])).toBe('["a","b"]');
    expect(csvCell({ a: 1 })).toBe('{"a":1}');
    expect(csvCell(Number.NaN)).toBe("null");
  });
});
