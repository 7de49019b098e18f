import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  API_KEY_PATTERN,
  TOKEN_PREFIXES,
  generateApiKey,
  generateToken,
  hashToken,
  isApiKeyFormat,
  isTokenFormat,
  MAX_KEY_NAME,
  parseBearer,
  parseKeyName,
  safeEqual,
  tokenKind,
  type TokenKind,
} from "../../src/core/keys.js";
import { ServiceError } from "../../src/core/errors.js";

const HEX64 = "0123456789abcdef".repeat(4);
const KINDS = Object.keys(TOKEN_PREFIXES) as TokenKind[];

describe("API key format (spec 2.1, 8)", () => {
  it("generates pk_ + 64 lowercase hex", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(key).toHaveLength(67);
    expect(isApiKeyFormat(key)).toBe(true);
  });

  it("generates unique values", () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
  });

  it.each([
    [`pk_${HEX64}`, true],
    [`pk_${HEX64.toUpperCase()}`, false],
    [`pk_${HEX64.slice(1)}`, false],
    [`pk_${HEX64}0`, false],
    [`pk_${HEX64.slice(1)}g`, false],
    [`PK_${HEX64}`, false],
    [`ds_${HEX64}`, false],
    [`pk-${HEX64}`, false],
    [` pk_${HEX64}`, false],
    [`pk_${HEX64}\n`, false],
    ["", false],
    [undefined, false],
    [123, false],
  ])("isApiKeyFormat(%j) = %s", (value, expected) => {
    expect(isApiKeyFormat(value)).toBe(expected);
    if (typeof value === "string") expect(API_KEY_PATTERN.test(value)).toBe(expected);
  });
});

describe("token kinds (DESIGN 4.2)", () => {
  it("has exactly the four prefixes", () => {
    expect(TOKEN_PREFIXES).toEqual({
      api_key: "pk_",
      dashboard_access: "ds_",
      dashboard_refresh: "dr_",
      account_session: "as_",
    });
  });

  it.each(KINDS)("generateToken(%s) has its prefix, is recognised, unique, and fits no other kind", (kind) => {
    const a = generateToken(kind);
    const b = generateToken(kind);
    expect(a.startsWith(TOKEN_PREFIXES[kind])).toBe(true);
    expect(a).toMatch(/^[a-z]{2}_[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    expect(tokenKind(a)).toBe(kind);
    for (const other of KINDS) expect(isTokenFormat(other, a)).toBe(other === kind);
  });

  it.each([
    ["pk_x", "api_key"],
    ["ds_", "dashboard_access"],
    ["dr_abc", "dashboard_refresh"],
    ["as_abc", "account_session"],
    ["xx_abc", undefined],
    ["PK_abc", undefined],
    ["pk", undefined],
    ["", undefined],
  ])("tokenKind(%j) = %s", (token, kind) => {
    expect(tokenKind(token)).toBe(kind);
  });

  it("isTokenFormat rejects malformed bodies", () => {
    expect(isTokenFormat("account_session", `as_${HEX64}`)).toBe(true);
    expect(isTokenFormat("account_session", `as_${HEX64.slice(2)}`)).toBe(false);
    expect(isTokenFormat("account_session", `as_${HEX64.toUpperCase()}`)).toBe(false);
    expect(isTokenFormat("account_session", `as_${HEX64}00`)).toBe(false);
    expect(isTokenFormat("account_session", null)).toBe(false);
  });
});

describe("hashToken", () => {
  it("is SHA-256 lowercase hex", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashToken("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const key = generateApiKey();
    expect(hashToken(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashToken(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is deterministic and distinguishes keys", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
    expect(hashToken(a)).not.toContain(a.slice(3));
  });
});

describe("parseBearer (spec 5.2.1)", () => {
  const key = `pk_${HEX64}`;
  it.each<[string | null | undefined, string | undefined]>([
    [`Bearer ${key}`, key],
    [`bearer ${key}`, key],
    [`BEARER ${key}`, key],
    [`BeArEr ${key}`, key],
    [`Bearer  ${key}`, key],
    [`  Bearer ${key}  `, key],
    ["Bearer abc.DEF-_~+/==", "abc.DEF-_~+/=="],
    [undefined, undefined],
    [null, undefined],
    ["", undefined],
    ["   ", undefined],
    ["Bearer", undefined],
    ["Bearer ", undefined],
    ["Bearer    ", undefined],
    [key, undefined],
    [`Bearer${key}`, undefined],
    [`Bearer\t${key}`, undefined],
    [`Bearer ${key} ${key}`, undefined],
    [`Bearer ${key},Bearer ${key}`, undefined],
    [`Bearer ${key}, Basic abc`, undefined],
    [`Bearer a,b`, undefined],
    [`Bearer "${key}"`, undefined],
    [`Basic ${Buffer.from("u:p").toString("base64")}`, undefined],
    [`Token ${key}`, undefined],
    [`Bearer: ${key}`, undefined],
    [`Bearer ${key}?api_key=x`, undefined],
    [`Bearer ${key}&x=1`, undefined],
    [`Bearer api_key=${key}`, undefined],
    [`Bearer ${key};`, undefined],
    [`Bearer ${key}\r\nX: y`, undefined],
    [`Bearer =abc`, undefined],
    [`Bearer ${"a".repeat(5000)}`, undefined],
  ])("parseBearer(%j) = %j", (header, expected) => {
    expect(parseBearer(header)).toBe(expected);
  });

  it("never returns a value containing whitespace or commas", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const t = parseBearer(s);
        if (t !== undefined) {
          expect(t).not.toMatch(/[\s,]/);
          expect(t.length).toBeGreaterThan(0);
          expect(s.trim().toLowerCase().startsWith("bearer ")).toBe(true);
        }
      }),
    );
  });
});

describe("safeEqual", () => {
  it.each([
    ["abc", "abc", true],
    ["", "", true],
    [`pk_${HEX64}`, `pk_${HEX64}`, true],
    ["abc", "abd", false],
    ["abc", "abcd", false],
    ["abc", "", false],
    ["abc", "ABC", false],
    ["é", "e\u0301", false],
  ])("safeEqual(%j, %j) = %s", (a, b, expected) => {
    expect(safeEqual(a, b)).toBe(expected);
    expect(safeEqual(b, a)).toBe(expected);
  });

  it("agrees with === on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(safeEqual(a, b)).toBe(a === b);
      }),
    );
  });
});

describe("parseKeyName (spec 2.1: a key is created with a name)", () => {
  const refusal = (value: unknown) => {
    try {
      parseKeyName(value);
    } catch (error) {
      return error as ServiceError;
    }
    throw new Error(`accepted ${JSON.stringify(value)}`);
  };

  it("trims and keeps the name", () => {
    expect(parseKeyName("  build server\t")).toBe("build server");
    expect(parseKeyName("x".repeat(MAX_KEY_NAME))).toHaveLength(MAX_KEY_NAME);
    expect(parseKeyName(` ${"y".repeat(MAX_KEY_NAME)} `)).toBe("y".repeat(MAX_KEY_NAME));
  });

  it.each([undefined, null, 42, ["a"], "", "   "])("refuses %j with 400 naming the field", (value) => {
    const error = refusal(value);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.status).toBe(400);
    expect(error.message).toBe("name is required (where the key is used)");
    expect(error.details).toEqual({ field: "name" });
  });

  it(`refuses a name longer than ${MAX_KEY_NAME} characters after trimming`, () => {
    const error = refusal("z".repeat(MAX_KEY_NAME + 1));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`name must be at most ${MAX_KEY_NAME} characters`);
  });

  it("never returns a blank or over-long name", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: MAX_KEY_NAME + 20 }), (raw) => {
        let name: string;
        try {
          name = parseKeyName(raw);
        } catch {
          expect(raw.trim() === "" || raw.trim().length > MAX_KEY_NAME).toBe(true);
          return;
        }
        expect(name).toBe(raw.trim());
        expect(name.length).toBeGreaterThan(0);
        expect(name.length).toBeLessThanOrEqual(MAX_KEY_NAME);
      }),
    );
  });
});
