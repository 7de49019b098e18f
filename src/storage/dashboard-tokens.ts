/**
 * Dashboard sessions (spec 3, DESIGN §4.2): a short-lived access token `ds_` (core/lifetimes.ts)
 * that carries the role and grants read at issue, and a refresh token `dr_` living 30 days. Refresh re-reads role
 * and grants — the only way a change reaches a signed-in person (spec 3) — and rotates the refresh
 * token (single use). Every token of one sign-in shares a family id; a used refresh token is kept
 * (marked `used_at`) until it expires, so presenting it again is recognised as a replay and ends
 * the whole family, access tokens included (OAuth 2.0 security BCP) — unless the caller allows a
 * short reuse grace (the dashboard's shared cookie only; see `refresh`). Only SHA-256 hashes are stored.
 *
 * @example
 * const tokens = ctx.db.dashboardTokens;
 * const pair = await tokens.issue(user.workspaceId, user); // { access_token, refresh_token, expires_in, role }
 */
import { randomUUID } from "node:crypto";
import { generateToken, hashToken, isTokenFormat } from "../core/keys.js";
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from "../core/lifetimes.js";
import type { StorageContext } from "./context.js";
import type { Member } from "./members.js";
import { parseStoredGrants } from "./credentials.js";
import type { Sql } from "./sql.js";
import { takeRemovedMark } from "./removed-marks.js";

/** The body of a login or refresh response (DESIGN §4.2). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  /** Seconds until the access token expires. */
  expires_in: number;
  role: Member["role"];
}

/**
 * Why a refresh was refused, told to the token's holder so the dashboard can say it: `expired`;
 * `revoked` (unknown: signed out, ended elsewhere, or never valid); `reused` (a spent token
 * presented again: the whole sign-in was ended); `member_removed` (the member no longer exists).
 */
export type RefreshRefusal = "expired" | "revoked" | "reused" | "member_removed";

/**
 * What a refresh came to: a new pair (`graced` when a just-spent token renewed within the reuse
 * grace), or a refusal with its reason; `replay` when the token had been used before, with the
 * family that was revoked for it (for the log: never the token).
 */
export type RefreshOutcome =
  | { pair: TokenPair; refused?: undefined; graced?: true }
  | { pair?: undefined; refused: RefreshRefusal; replay?: { memberId: string; revoked: number } };

type Holder = Pick<Member, "id" | "role" | "grants">;

/** Repository factory; use through `ctx.db.dashboardTokens`. */
export function createDashboardTokenRepo(ctx: StorageContext) {
  const { sql } = ctx;

  const issueWith = async (db: Sql, workspaceId: string, user: Holder, family: string): Promise<TokenPair> => {
    const now = ctx.now();
    const at = iso(now);
    const access = generateToken("dashboard_access");
    const refresh = generateToken("dashboard_refresh");
    const grants = JSON.stringify(user.grants);
    // Expired rows of this user go now, so the table does not grow with every sign-in.
    await db.run("DELETE FROM dashboard_tokens WHERE user_id = ? AND expires_at <= ?", [user.id, at]);
    const insert =
      "INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, grants, created_at, expires_at, family_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    await db.run(insert, [hashToken(access), "access", workspaceId, user.id, user.role, grants, at, iso(now + ACCESS_TOKEN_TTL_MS), family]);
    await db.run(insert, [hashToken(refresh), "refresh", workspaceId, user.id, user.role, grants, at, iso(now + REFRESH_TOKEN_TTL_MS), family]);
    return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_TTL_MS / 1000, role: user.role };
  };

  /** A new pair of the token's family for its user as they are now, or `member_removed`. */
  const renew = async (db: Sql, workspaceId: string, row: TokenRow): Promise<RefreshOutcome> => {
    const user = await db.get<{ id: string; role: string; grants: string }>("SELECT id, role, grants FROM dashboard_users WHERE id = ? AND workspace_id = ?", [
      row.user_id,
      workspaceId,
    ]);
    if (!user) return { refused: "member_removed" };
    const role = user.role === "owner" ? "owner" : "member";
    return { pair: await issueWith(db, workspaceId, { id: user.id, role, grants: parseStoredGrants(user.grants) }, row.family_id) };
  };

  return {
    /** A fresh token pair, the first of a new family, for a user who just proved their password. */
    issue(workspaceId: string, user: Holder): Promise<TokenPair> {
      return sql.transaction((tx) => issueWith(tx, workspaceId, user, randomUUID()));
    },

    /**
     * Exchanges a refresh token for a new pair of the same family carrying the user's current
     * role and grants. Unknown, expired, malformed, of another workspace, or of a removed user →
     * no pair, and the reason. Already used → no pair, and every token of its family is deleted —
     * except within `reuseGraceMs` (0 unless the caller says the token came from the dashboard's
     * shared cookie, core/lifetimes.ts REFRESH_REUSE_GRACE_MS) after it was spent, when it is the
     * family's most recently spent token: then it gets a fresh pair of the family (`graced`).
     */
    async refresh(workspaceId: string, refreshToken: unknown, options: { reuseGraceMs?: number } = {}): Promise<RefreshOutcome> {
      if (!isTokenFormat("dashboard_refresh", refreshToken)) return { refused: "revoked" };
      const hash = hashToken(refreshToken);
      const graceMs = options.reuseGraceMs ?? 0;
      const outcome = await sql.transaction(async (tx): Promise<RefreshOutcome> => {
        const now = ctx.now();
        const at = iso(now);
        // Check and spend in one statement: of two concurrent refreshes with one token exactly
        // one matches `used_at IS NULL` (PostgreSQL re-checks it after the other's commit).
        const { changes } = await tx.run(
          "UPDATE dashboard_tokens SET used_at = ? WHERE token_hash = ? AND kind = 'refresh' AND workspace_id = ? AND used_at IS NULL AND expires_at > ?",
          [at, hash, workspaceId, at],
        );
        const row = await tx.get<TokenRow>(
          "SELECT user_id, family_id, used_at, expires_at FROM dashboard_tokens WHERE token_hash = ? AND kind = 'refresh' AND workspace_id = ?",
          [hash, workspaceId],
        );
        if (!row) return { refused: "revoked" };
        if (changes !== 1) {
          if (row.used_at === null) return { refused: "expired" }; // expired, never used
          if (graceMs > 0 && (await withinReuseGrace(tx, hash, row, now, graceMs))) {
            // Its answer was most likely lost: renew in place of it (the spent token keeps its
            // `used_at`, so the grace never extends). The pair it did answer stays valid, since
            // another tab may hold it as the cookie.
            const renewed = await renew(tx, workspaceId, row);
            return renewed.pair ? { ...renewed, graced: true } : renewed;
          }
          // The revocation is committed, not rolled back: the caller refuses without throwing here.
          const revoked = await tx.run("DELETE FROM dashboard_tokens WHERE family_id = ? AND workspace_id = ?", [row.family_id, workspaceId]);
          return { refused: "reused", replay: { memberId: row.user_id, revoked: revoked.changes } };
        }
        return renew(tx, workspaceId, row);
      });
      if (outcome.refused === "revoked" && (await takeRemovedMark(ctx, hash))) return { refused: "member_removed" };
      return outcome;
    },

    /**
     * Signs out: deletes every token of the presented access token's sign-in and, when given,
     * of the refresh token's — only tokens of the same user.
     */
    async logout(workspaceId: string, memberId: string, accessToken: string, refreshToken?: unknown): Promise<void> {
      const hashes = [hashToken(accessToken)];
      if (isTokenFormat("dashboard_refresh", refreshToken)) hashes.push(hashToken(refreshToken));
      for (const h of hashes) {
        await sql.run(
          "DELETE FROM dashboard_tokens WHERE user_id = ? AND workspace_id = ? AND (token_hash = ? OR family_id IN (SELECT family_id FROM dashboard_tokens WHERE token_hash = ?))",
          [memberId, workspaceId, h, h],
        );
      }
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The refresh token row a refresh reads. */
type TokenRow = { user_id: string; family_id: string; used_at: string | null; expires_at: string };

/**
 * True when a spent refresh token may renew instead of revoking: spent at most `graceMs` ago, not
 * expired, and the family's most recently spent refresh token. That last part is what tells a
 * lost answer from theft: a browser that lost an answer still holds the token spent last, while a
 * token spent earlier in the chain (one whose successor has itself been spent) can come back only
 * from a copy, so it still revokes the family. A tie on `used_at` counts as a later spend, so a
 * doubt revokes.
 */
async function withinReuseGrace(db: Sql, hash: string, row: TokenRow, now: number, graceMs: number): Promise<boolean> {
  const spentAt = Date.parse(row.used_at!);
  if (now - spentAt > graceMs || Date.parse(row.expires_at) <= now) return false;
  const later = await db.get<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM dashboard_tokens WHERE family_id = ? AND kind = 'refresh' AND token_hash <> ? AND used_at >= ?",
    [row.family_id, hash, row.used_at],
  );
  return Number(later?.n ?? 0) === 0;
}
