/**
 * Every fixed lifetime of a credential or token the spec names (spec 3, 5.6, 8), in one place:
 * storage stamps `expires_at` from these, the HTTP layer reports them, tests pin them.
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** An end user's account session (`as_`): 30 days from issue, never renewed (spec 3, 5.6, 8). */
export const ACCOUNT_SESSION_TTL_MS = 30 * DAY_MS;

/**
 * A dashboard access token (`ds_`): grant changes propagate within one hour (spec 8), so an access
 * token, which carries the grants read at issue, lives at most that.
 */
export const ACCESS_TOKEN_TTL_MS = HOUR_MS;

/** A dashboard refresh token (`dr_`): how long a person stays signed in without using the dashboard. */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;

/** A one-time email-verification token (`ev_`) mailed to an end user. */
export const EMAIL_VERIFICATION_TTL_MS = DAY_MS;

/**
 * API keys never expire (spec 3); their `last_used_at` is written at most once per this interval
 * (spec 2.1, 8), so a busy key does not cost a write per request.
 */
export const KEY_LAST_USED_INTERVAL_MS = MINUTE_MS;
