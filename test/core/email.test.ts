import { describe, expect, it } from "vitest";
import { normalizeEmail, tryNormalizeEmail } from "../../src/core/email.js";
import { ALL_GRANTS, LEGACY_KEY_GRANTS, hasGrant } from "../../src/core/grants.js";
import { generateApiKey, generateToken } from "../../src/core/keys.js";
import { looksLikeToken, validateNewPassword } from "../../src/core/passwords.js";

describe("emails", () => {
  it.each([
    ["  Ada@Example.COM ", "ada@example.com"],
    ["owner@demo.localhost", "owner@demo.localhost"],
    ["x@localhost", "x@localhost"],
  ])("normalizes %j", (input, out) => expect(normalizeEmail(input)).toBe(out));
  it.each(["", "nope", "a@b", "a b@c.de", "@x.io", 5, null, "a@" + "b".repeat(260) + ".io"])("refuses %j", (v) => {
    expect(tryNormalizeEmail(v)).toBeUndefined();
    expect(() => normalizeEmail(v)).toThrow(/email/);
  });
});

describe("token-shaped passwords (a key can never be a password)", () => {
  it("recognizes every token kind and nothing else", () => {
    for (const t of [generateApiKey(), generateToken("dashboard_access"), generateToken("dashboard_refresh"), generateToken("account_session")]) {
      expect(looksLikeToken(t)).toBe(true);
      expect(() => validateNewPassword(t)).toThrow(/API key or token/);
    }
    for (const p of ["pk_short password", "correct horse battery", "PK_" + "a".repeat(64)]) expect(looksLikeToken(p)).toBe(false);
  });
});

describe("legacy key grants (spec 5.4.6, 9.3)", () => {
  it("are the old model's reads: private content and every MCP read tool, no write", () => {
    const allowed = ALL_GRANTS.filter((g) => hasGrant(LEGACY_KEY_GRANTS, g));
    expect(allowed.sort()).toEqual(["collections:read", "entries:read", "forms:read", "media:read", "submissions:read"]);
  });
});
