/**
 * One-time email-verification tokens of end users (migration 007): an `ev_` token of 32 random
 * bytes, stored as its SHA-256 only, valid 24 hours, single use, bound to the address it was sent
 * to (a token for an address the account no longer has verifies nothing). Issuing one replaces the
 * user's earlier tokens.
 *
 * @example
 * const { token } = await ctx.db.emailVerifications.issue(ws.id, user.id, user.email);
 */
import { randomBytes } from "node:crypto";
import { hashToken } from "../core/keys.js";
import { EMAIL_VERIFICATION_TTL_MS } from "../core/lifetimes.js";
import type { StorageContext } from "./context.js";

/** Not a bearer credential (core/keys.ts TOKEN_PREFIXES): presented as one it is an unknown token, 401. */
const TOKEN = /^ev_[0-9a-f]{64}$/;


/** Repository factory; use through `ctx.db.emailVerifications`. */
export function createEmailVerificationRepo(ctx: StorageContext) {
  const { sql } = ctx;
  return {
    async issue(workspaceId: string, userId: string, email: string): Promise<{ token: string; expires_at: string }> {
      const now = ctx.now();
      const token = `ev_${randomBytes(32).toString("hex")}`;
      const at = new Date(now).toISOString();
      const expires = new Date(now + EMAIL_VERIFICATION_TTL_MS).toISOString();
      await sql.transaction(async (tx) => {
        await tx.run("DELETE FROM email_verifications WHERE user_id = ?", [userId]);
        await tx.run("INSERT INTO email_verifications (token_hash, workspace_id, user_id, email, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)", [
          hashToken(token),
          workspaceId,
          userId,
          email,
          at,
          expires,
        ]);
      });
      return { token, expires_at: expires };
    },

    /**
     * Spends a token: the id of the user whose email it verified, or undefined (unknown, used,
     * expired, of another workspace, or for an address the account no longer has). The row is
     * deleted in the same transaction, so two concurrent uses verify once.
     */
    async consume(workspaceId: string, token: unknown): Promise<string | undefined> {
      if (typeof token !== "string" || !TOKEN.test(token)) return undefined;
      const hash = hashToken(token);
      const at = new Date(ctx.now()).toISOString();
      return sql.transaction(async (tx) => {
        const row = await tx.get<{ user_id: string; email: string; expires_at: string }>(
          "SELECT user_id, email, expires_at FROM email_verifications WHERE token_hash = ? AND workspace_id = ?",
          [hash, workspaceId],
        );
        if (!row) return undefined;
        const deleted = await tx.run("DELETE FROM email_verifications WHERE token_hash = ?", [hash]);
        if (deleted.changes === 0 || row.expires_at <= at) return undefined;
        const updated = await tx.run("UPDATE end_users SET email_verified_at = ? WHERE id = ? AND workspace_id = ? AND email = ?", [
          at,
          row.user_id,
          workspaceId,
          row.email,
        ]);
        return updated.changes > 0 ? row.user_id : undefined;
      });
    },
  };
}
