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
 * A grant or role change reaches a signed-in person at their next token refresh, within one hour
 * (spec 3, 8): the bound an access token's lifetime may never exceed.
 */
export const GRANT_PROPAGATION_BOUND_MS = HOUR_MS;

/**
 * A dashboard access token (`ds_`), which carries the role and grants read at issue. Far under the
 * one-hour bound so that an owner's change is felt within minutes: the dashboard refreshes in the
 * background before expiry, and a refresh costs one small transaction every few minutes per tab.
 */
export const ACCESS_TOKEN_TTL_MS = 5 * MINUTE_MS;

/** A dashboard refresh token (`dr_`): how long a person stays signed in without using the dashboard. */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;

/**
 * How long after a dashboard refresh token was spent the same token, presented again through the
 * refresh cookie only, still renews its sign-in instead of revoking it as a replay. Every tab
 * shares one cookie, and a refresh whose answer never lands (the tab reloaded or closed
 * mid-request, the network dropped after the commit) leaves the browser holding the spent token;
 * with five-minute access tokens that would otherwise end the whole sign-in in every tab often.
 * Long enough for a reload or a retry, short enough that a copied cookie replayed later is still
 * caught. The body form (API and CLI callers, who hold their own token) gets no grace.
 */
export const REFRESH_REUSE_GRACE_MS = 20 * 1000;

/** A one-time email-verification token (`ev_`) mailed to an end user. */
export const EMAIL_VERIFICATION_TTL_MS = DAY_MS;

/**
 * API keys never expire (spec 3); their `last_used_at` is written at most once per this interval
 * (spec 2.1, 8), so a busy key does not cost a write per request.
 */
export const KEY_LAST_USED_INTERVAL_MS = MINUTE_MS;
