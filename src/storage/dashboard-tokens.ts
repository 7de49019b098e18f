/**
 * Dashboard sessions (spec 3, DESIGN §4.2): an access token `ds_` living one hour that carries the
 * role and grants read at issue, and a refresh token `dr_` living 30 days. Refresh re-reads role
 * and grants — the only way a change reaches a signed-in person (spec 3) — and rotates the refresh
 * token (single use). Only SHA-256 hashes are stored.
 *
 * @example
 * const tokens = repo(ctx, createDashboardTokenRepo);
 * const pair = await tokens.issue(user.workspaceId, user); // { access_token, refresh_token, expires_in, role }
 */
import { unauthorized } from "../core/errors.js";
import { generateToken, hashToken, isTokenFormat } from "../core/keys.js";
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from "../core/lifetimes.js";
import type { StorageContext } from "./context.js";
import type { Member } from "./members.js";
import { parseStoredGrants } from "./credentials.js";
import type { Sql } from "./sql.js";


/** The body of a login or refresh response (DESIGN §4.2). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  /** Seconds until the access token expires. */
  expires_in: number;
  role: Member["role"];
}

/** Repository factory; use through `repo(ctx, createDashboardTokenRepo)`. */
export function createDashboardTokenRepo(ctx: StorageContext) {
  const { sql } = ctx;

  const issueWith = async (db: Sql, workspaceId: string, user: Pick<Member, "id" | "role" | "grants">): Promise<TokenPair> => {
    const now = ctx.now();
    const at = new Date(now).toISOString();
    const access = generateToken("dashboard_access");
    const refresh = generateToken("dashboard_refresh");
    const grants = JSON.stringify(user.grants);
    // Expired rows of this user go now, so the table does not grow with every sign-in.
    await db.run("DELETE FROM dashboard_tokens WHERE user_id = ? AND expires_at <= ?", [user.id, at]);
    const insert = "INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, grants, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    await db.run(insert, [hashToken(access), "access", workspaceId, user.id, user.role, grants, at, iso(now + ACCESS_TOKEN_TTL_MS)]);
    await db.run(insert, [hashToken(refresh), "refresh", workspaceId, user.id, user.role, grants, at, iso(now + REFRESH_TOKEN_TTL_MS)]);
    return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_TTL_MS / 1000, role: user.role };
  };

  return {
    /** A fresh token pair for a user who just proved their password. */
    issue(workspaceId: string, user: Pick<Member, "id" | "role" | "grants">): Promise<TokenPair> {
      return sql.transaction((tx) => issueWith(tx, workspaceId, user));
    },

    /**
     * Exchanges a refresh token for a new pair carrying the user's current role and grants. The
     * presented refresh token is consumed (a second use is 401). Unknown, expired, malformed, or
     * of another workspace → 401; a removed user has no tokens left.
     */
    async refresh(workspaceId: string, refreshToken: unknown): Promise<TokenPair> {
      if (!isTokenFormat("dashboard_refresh", refreshToken)) throw unauthorized();
      const hash = hashToken(refreshToken);
      return sql.transaction(async (tx) => {
        const row = await tx.get<{ user_id: string; expires_at: string }>(
          "SELECT user_id, expires_at FROM dashboard_tokens WHERE token_hash = ? AND kind = 'refresh' AND workspace_id = ?",
          [hash, workspaceId],
        );
        if (!row) throw unauthorized();
        // Consume first: of two concurrent refreshes with one token, only one deletes the row.
        const { changes } = await tx.run("DELETE FROM dashboard_tokens WHERE token_hash = ?", [hash]);
        if (changes !== 1 || Date.parse(row.expires_at) <= ctx.now()) throw unauthorized();
        const user = await tx.get<{ id: string; role: string; grants: string }>(
          "SELECT id, role, grants FROM dashboard_users WHERE id = ? AND workspace_id = ?",
          [row.user_id, workspaceId],
        );
        if (!user) throw unauthorized();
        const role = user.role === "owner" ? "owner" : "member";
        return issueWith(tx, workspaceId, { id: user.id, role, grants: parseStoredGrants(user.grants) });
      });
    },

    /**
     * Signs out: deletes the presented access token and, when given, the refresh token — only
     * if it belongs to the same user.
     */
    async logout(workspaceId: string, userId: string, accessToken: string, refreshToken?: unknown): Promise<void> {
      const hashes = [hashToken(accessToken)];
      if (isTokenFormat("dashboard_refresh", refreshToken)) hashes.push(hashToken(refreshToken));
      for (const h of hashes) {
        await sql.run("DELETE FROM dashboard_tokens WHERE token_hash = ? AND user_id = ? AND workspace_id = ?", [h, userId, workspaceId]);
      }
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
