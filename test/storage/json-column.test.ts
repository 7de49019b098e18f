import { describe, expect, it } from "vitest";
import { parseArrayColumn, parseJsonColumn, parseObjectColumn } from "../../src/storage/json-column.js";

describe("JSON columns read leniently", () => {
  it("parseObjectColumn: an object as stored, anything else {}", () => {
    expect(parseObjectColumn('{"plan":"pro","n":[1]}')).toEqual({ plan: "pro", n: [1] });
    for (const bad of ["[1,2]", "null", "3", '"s"', "{oops", ""]) expect(parseObjectColumn(bad)).toEqual({});
  });

  it("parseArrayColumn: an array as stored, anything else []", () => {
    expect(parseArrayColumn<string>('["a","b"]')).toEqual(["a", "b"]);
    for (const bad of ['{"0":"a"}', "null", "1", "[oops", ""]) expect(parseArrayColumn(bad)).toEqual([]);
  });

  it("parseJsonColumn: the value, or undefined when not JSON", () => {
    expect(parseJsonColumn("null")).toBeNull();
    expect(parseJsonColumn("[true]")).toEqual([true]);
    expect(parseJsonColumn("nope")).toBeUndefined();
  });
});
