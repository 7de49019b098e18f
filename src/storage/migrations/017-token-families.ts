/**
 * Refresh-token families (OAuth 2.0 security BCP, refresh token rotation): every token of one
 * sign-in, access and refresh, carries the sign-in's `family_id`; a refresh marks its token
 * `used_at` instead of deleting it, so a used token presented again is recognised as a replay and
 * the whole family is revoked. Existing tokens each become a family of their own (nothing is
 * signed out by the upgrade).
 */
export const tokenFamilies = () => `
ALTER TABLE dashboard_tokens ADD COLUMN family_id TEXT;
ALTER TABLE dashboard_tokens ADD COLUMN used_at TEXT;
UPDATE dashboard_tokens SET family_id = token_hash;
CREATE INDEX dashboard_tokens_family ON dashboard_tokens(family_id);
`;
