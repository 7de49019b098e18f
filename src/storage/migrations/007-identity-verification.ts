/**
 * Self sign-up as an identity setting (off until the owner turns it on), verified end-user emails
 * (rules see an email only once verified) with their one-time verification tokens (stored hashed),
 * and the names of form fields removed while submissions existed (their values stay stored, so a
 * field added later under such a name is a narrowing change; docs/forms.md). Existing accounts
 * start unverified: nothing proved they own their address. Forms that hold submissions start with
 * an unknown history (NULL): every new field of theirs counts as narrowing until they are empty.
 */
export const identityVerification = () => `
ALTER TABLE workspaces ADD COLUMN self_signup INTEGER NOT NULL DEFAULT 0;
ALTER TABLE end_users ADD COLUMN email_verified_at TEXT;
CREATE TABLE email_verifications (
  token_hash TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX email_verifications_user ON email_verifications(user_id);
ALTER TABLE forms ADD COLUMN retired_fields TEXT;
UPDATE forms SET retired_fields = '[]' WHERE NOT EXISTS (SELECT 1 FROM submissions s WHERE s.form_id = forms.id);
`;
