/** core/records.ts: records keyed by user-chosen names read only their own keys. */
import { describe, expect, it } from "vitest";
import { dataRecord, isPrototypeKey, own } from "../../src/core/records.js";

const NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__"];

describe("dataRecord", () => {
  it("reads an absent name as undefined, whatever Object.prototype has", () => {
    const r = dataRecord({ title: "Hi" });
    for (const name of NAMES) expect(r[name]).toBeUndefined();
    expect(Object.getPrototypeOf(r)).toBeNull();
  });

  it("copies own entries of an object or of pairs, __proto__ as a plain key", () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"constructor":1}') as Record<string, unknown>;
    const r = dataRecord(parsed);
    expect(Object.keys(r)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(r)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(dataRecord([["toString", 2]]).toString).toBe(2);
    expect(dataRecord(new Map([["valueOf", 3]])).valueOf).toBe(3);
  });

  it("writing __proto__ into it sets a key, never a prototype", () => {
    const r = dataRecord<unknown>();
    r.__proto__ = { polluted: true };
    expect(Object.keys(r)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(r)).toBeNull();
  });
});

describe("own", () => {
  it("is undefined for inherited names and the value for own ones", () => {
    const plain = JSON.parse('{"valueOf":0}') as Record<string, unknown>;
    for (const name of NAMES.filter((n) => n !== "valueOf")) expect(own(plain, name)).toBeUndefined();
    expect(own(plain, "valueOf")).toBe(0);
    expect(own(dataRecord({ a: 1 }), "a")).toBe(1);
  });
});

describe("isPrototypeKey", () => {
  it("is true for __proto__ only", () => {
    expect(isPrototypeKey("__proto__")).toBe(true);
    for (const name of [...NAMES, "proto", "__proto", "_proto_"]) expect(isPrototypeKey(name)).toBe(false);
  });
});
