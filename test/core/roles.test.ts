import { describe, expect, it } from "vitest";
import { ServiceError } from "../../src/core/errors.js";
import { assertKnownFields } from "../../src/core/fields.js";
import { parseRole, ROLES } from "../../src/core/roles.js";

const refusal = (fn: () => unknown): ServiceError => {
  try {
    fn();
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error("accepted");
};

describe("parseRole (spec 5.5)", () => {
  it("accepts exactly owner and member", () => {
    expect(ROLES).toEqual(["owner", "member"]);
    for (const role of ROLES) expect(parseRole(role)).toBe(role);
  });

  it.each([undefined, "Owner", "admin", "", 1, ["owner"]])("refuses %j with 400 naming the field", (value) => {
    const error = refusal(() => parseRole(value));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`role must be owner or member, got ${JSON.stringify(value)}`);
    expect(error.details).toEqual({ field: "role" });
  });
});

describe("assertKnownFields", () => {
  it("passes a body of known fields, empty included", () => {
    expect(() => assertKnownFields({}, ["name"], "POST /x")).not.toThrow();
    expect(() => assertKnownFields({ name: 1, grants: [] }, ["name", "grants"], "POST /x")).not.toThrow();
  });

  it("refuses the first unknown field with 400 naming it, the operation and the fields it takes", () => {
    const error = refusal(() => assertKnownFields({ name: "a", grant: [] }, ["name", "grants"], "POST /api/dashboard/keys"));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Unknown field "grant": POST /api/dashboard/keys takes name, grants');
    expect(error.details).toEqual({ field: "grant" });
  });
});
