/**
 * core/pagination.ts, the one home of page sizes: defaults, ceilings refused (never lowered) with
 * a 400 naming the parameter and its range, strict digits, repeated parameters refused, from
 * h3's query object and from URLSearchParams alike.
 */
import { describe, expect, it } from "vitest";
import { PAGE_SIZES, parsePage } from "../../src/core/pagination.js";
import { isServiceError } from "../../src/core/errors.js";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isServiceError(error)) return { status: error.status, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("not refused");
};

describe("parsePage", () => {
  it("applies each family's default", () => {
    expect(parsePage({}, PAGE_SIZES.entries)).toEqual({ limit: 20, offset: 0 });
    expect(parsePage(new URLSearchParams(""), PAGE_SIZES.records)).toEqual({ limit: 50, offset: 0 });
    expect(parsePage({ limit: "", offset: "" }, PAGE_SIZES.files)).toEqual({ limit: 50, offset: 0 });
    expect(parsePage({ limit: "200", offset: "7" }, PAGE_SIZES.records)).toEqual({ limit: 200, offset: 7 });
    expect(parsePage(new URLSearchParams("limit=0"), PAGE_SIZES.entries)).toEqual({ limit: 0, offset: 0 });
  });

  it.each([
    [PAGE_SIZES.entries, "101", "limit: must be an integer from 0 to 100"],
    [PAGE_SIZES.records, "201", "limit: must be an integer from 1 to 200"],
    [PAGE_SIZES.files, "101", "limit: must be an integer from 1 to 100"],
    [PAGE_SIZES.files, "0", "limit: must be an integer from 1 to 100"],
  ])("refuses a limit out of range, naming the parameter and the maximum (%j, %s)", (size, limit, message) => {
    expect(refusal(() => parsePage({ limit }, size))).toEqual({ status: 400, message, details: { parameter: "limit", minimum: size.min, maximum: size.max } });
  });

  it.each(["-1", "1e3", "1.5", " 5", "0x10", "abc", "99999999999"])("refuses limit=%s", (limit) => {
    expect(refusal(() => parsePage(new URLSearchParams({ limit }), PAGE_SIZES.entries)).message).toMatch(/^limit: /);
  });

  it("refuses a repeated parameter and a too large offset", () => {
    expect(refusal(() => parsePage(new URLSearchParams("offset=1&offset=2"), PAGE_SIZES.entries)).message).toBe("offset: given more than once");
    expect(refusal(() => parsePage({ limit: ["1", "2"] }, PAGE_SIZES.records)).message).toBe("limit: given more than once");
    expect(refusal(() => parsePage({ offset: "1000000000" }, PAGE_SIZES.files)).message).toBe("offset: must be an integer from 0 to 999999999");
  });
});
