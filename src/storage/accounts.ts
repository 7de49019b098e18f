/**
 * Identity end users as they sign in, and their account sessions (spec 2.4, 4.4, 5.6): email +
 * scrypt password (the row itself is written by storage/end-users.ts, sign-up included);
 * a session is an opaque `as_` token valid 30 days from issue, never renewed (signing in again
 * issues a new one), stored hashed, carrying no grants. Deactivated end users (active = 0) are
 * refused by the authenticator on their very next request.
 *
 * @example
 * const accounts = ctx.db.accounts;
 * const { token, expires_at } = await accounts.issueSession(ws.id, user.id);
 */
import { tryNormalizeEmail } from "../core/email.js";
import { generateToken, hashToken } from "../core/keys.js";
import { ACCOUNT_SESSION_TTL_MS } from "../core/lifetimes.js";
import type { StorageContext } from "./context.js";
import { checkSignIn } from "./password-upgrade.js";
import { parseObjectColumn } from "./json-column.js";

/** An end user as they see themselves (`GET /api/v1/accounts/me`). Never the password hash. */
export interface Account {
  id: string;
  email: string;
  /** Whether the account proved it receives mail at `email` (rules see the email only then). */
  email_verified: boolean;
  attributes: Record<string, unknown>;
  created_at: string;
}

interface Row {
  id: string;
  email: string;
  email_verified_at?: string | null;
  attributes: string;
  active: number;
  created_at: string;
}

const toAccount = (r: Row): Account => ({
  id: r.id,
  email: r.email,
  email_verified: r.email_verified_at != null,
  attributes: parseObjectColumn(r.attributes),
  created_at: r.created_at,
});

/** Repository factory; use through `ctx.db.accounts`. */
export function createAccountRepo(ctx: StorageContext) {
  const { sql } = ctx;

  return {
    /**
     * The active account an email and password name, or undefined, at equal cost for an unknown
     * email, a wrong password, a deactivated account or a token sent as the password.
     */
    async verifyLogin(workspaceId: string, email: unknown, password: unknown): Promise<Account | undefined> {
      const normalized = tryNormalizeEmail(email);
      const row = normalized
        ? await sql.get<Row & { password_hash: string }>(
            "SELECT id, email, attributes, active, created_at, password_hash FROM end_users WHERE workspace_id = ? AND email = ?",
            [workspaceId, normalized],
          )
        : undefined;
      const signedIn = await checkSignIn(ctx, "end_users", row, password);
      return signedIn && toAccount(signedIn);
    },

    /** Issues a session for `userId`: 30 days from now, never extended. */
    async issueSession(workspaceId: string, userId: string): Promise<{ token: string; expires_at: string }> {
      const now = ctx.now();
      const token = generateToken("account_session");
      const at = new Date(now).toISOString();
      const expires = new Date(now + ACCOUNT_SESSION_TTL_MS).toISOString();
      // Expired sessions of this user are dropped here so the table does not grow forever.
      await sql.run("DELETE FROM account_sessions WHERE user_id = ? AND expires_at <= ?", [userId, at]);
      await sql.run("INSERT INTO account_sessions (token_hash, workspace_id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)", [
        hashToken(token),
        workspaceId,
        userId,
        at,
        expires,
      ]);
      return { token, expires_at: expires };
    },

    /** Ends one session (the presented token). */
    async logout(workspaceId: string, token: string): Promise<void> {
      await sql.run("DELETE FROM account_sessions WHERE token_hash = ? AND workspace_id = ?", [hashToken(token), workspaceId]);
    },

    async get(workspaceId: string, id: string): Promise<Account | undefined> {
      const row = await sql.get<Row>("SELECT id, email, email_verified_at, attributes, active, created_at FROM end_users WHERE workspace_id = ? AND id = ?", [
        workspaceId,
        id,
      ]);
      return row && toAccount(row);
    },
  };
}
