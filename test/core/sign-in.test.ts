/**
 * The pure parts of sign-in throttling: the client address key and the back-off numbers.
 */
import { describe, expect, it } from "vitest";
import { addressKey } from "../../src/core/client-address.js";
import { backoffFor, DEFAULT_SIGN_IN_LIMITS, resolveSignInLimits } from "../../src/core/sign-in-limits.js";

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::1]", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002::1", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("%s → %s", (value, key) => {
    expect(addressKey(value)).toBe(key);
  });

  it.each([undefined, "", "unknown", "1.2.3", "0x7f.1", "256.1.1.1", "203.0.113.7:443", "example.com"])("%s is not an address", (value) => {
    expect(addressKey(value)).toBeUndefined();
  });
});

describe("sign-in limits", () => {
  it("defaults: 10 per account + address, 100 per address, 1 s doubling to 15 min, forgotten after 1 h", () => {
    expect(DEFAULT_SIGN_IN_LIMITS).toEqual({ accountFailures: 10, addressFailures: 100, backoffMs: 1000, maxBackoffMs: 900_000, windowMs: 3_600_000 });
  });

  it("backs off exponentially up to the cap", () => {
    const waits = Array.from({ length: 14 }, (_, n) => backoffFor(DEFAULT_SIGN_IN_LIMITS, n) / 1000);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900]);
    expect(backoffFor(DEFAULT_SIGN_IN_LIMITS, 10_000)).toBe(900_000);
    expect(backoffFor({ ...DEFAULT_SIGN_IN_LIMITS, backoffMs: 250, maxBackoffMs: 1000 }, 1)).toBe(500);
  });

  it("resolves partial settings over the defaults and refuses bad ones naming the field", () => {
    expect(resolveSignInLimits({ accountFailures: 5 })).toEqual({ ...DEFAULT_SIGN_IN_LIMITS, accountFailures: 5 });
    expect(() => resolveSignInLimits({ addressFailures: 1.5 })).toThrow(/signInLimits\.addressFailures must be a positive integer/);
    expect(() => resolveSignInLimits({ backoffMs: -1 })).toThrow(/signInLimits\.backoffMs/);
    expect(() => resolveSignInLimits({ backoffMs: 2000, maxBackoffMs: 1000 })).toThrow(/maxBackoffMs must be at least backoffMs/);
    expect(() => resolveSignInLimits({ windowMs: 1000 })).toThrow(/windowMs must be at least maxBackoffMs/);
  });
});
