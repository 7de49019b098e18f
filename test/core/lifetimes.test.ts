/**
 * The fixed lifetimes of spec 3, 5.6 and 8, pinned in the one module that holds them. The HTTP
 * tests (test/access/accounts.test.ts, dashboard.test.ts, last-used.test.ts) prove storage and
 * the authenticator apply them.
 */
import { describe, expect, it } from "vitest";
import {
  ACCESS_TOKEN_TTL_MS,
  ACCOUNT_SESSION_TTL_MS,
  EMAIL_VERIFICATION_TTL_MS,
  GRANT_PROPAGATION_BOUND_MS,
  KEY_LAST_USED_INTERVAL_MS,
  REFRESH_REUSE_GRACE_MS,
  REFRESH_TOKEN_TTL_MS,
} from "../../src/core/lifetimes.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("lifetimes", () => {
  it.each([
    ["an account session lives 30 days (spec 3, 5.6, 8)", ACCOUNT_SESSION_TTL_MS, 30 * DAY],
    ["a dashboard access token lives five minutes, so a grant change is felt within minutes", ACCESS_TOKEN_TTL_MS, 5 * MINUTE],
    ["grant changes propagate within one hour (spec 3, 8)", GRANT_PROPAGATION_BOUND_MS, HOUR],
    ["a dashboard refresh token lives 30 days", REFRESH_TOKEN_TTL_MS, 30 * DAY],
    ["an email-verification token lives 24 hours", EMAIL_VERIFICATION_TTL_MS, DAY],
    ["a key's last_used_at moves at most once a minute (spec 2.1, 8)", KEY_LAST_USED_INTERVAL_MS, MINUTE],
    ["the dashboard cookie's spent refresh token renews for 20 seconds after it was spent", REFRESH_REUSE_GRACE_MS, 20_000],
  ])("%s", (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("an access token, which carries grants read at issue, never outlives the propagation bound", () => {
    expect(ACCESS_TOKEN_TTL_MS).toBeLessThanOrEqual(GRANT_PROPAGATION_BOUND_MS);
  });

  it("the reuse grace is a small part of an access token's life, so a replayed copy is caught long before the next refresh", () => {
    expect(REFRESH_REUSE_GRACE_MS).toBeLessThanOrEqual(ACCESS_TOKEN_TTL_MS / 10);
  });

  it("an access token never outlives the refresh token that renews it", () => {
    expect(ACCESS_TOKEN_TTL_MS).toBeLessThan(REFRESH_TOKEN_TTL_MS);
  });
});
