/**
 * Members and owners (the dashboard users of spec 2.3 and 5.5): email + scrypt password, role owner or member, and a member's
 * grants over the eight resources. A workspace always keeps at least one owner. Grant and role
 * changes reach the person at their next token refresh (spec 3), see dashboard-tokens.ts;
 * removing a member ends their sessions at once. Input arrives validated (services/members.ts).
 *
 * @example
 * const members = ctx.db.members;
 * await members.create(ws.id, { email: "ada@example.com", password: "…", role: "member", grants: ["entries:read"] });
 */
import { randomUUID } from "node:crypto";
import { conflict, notFound } from "../core/errors.js";
import { tryNormalizeEmail } from "../core/email.js";
import type { Grant } from "../core/grants.js";
import { REFRESH_REUSE_GRACE_MS } from "../core/lifetimes.js";
import { hashPassword } from "../core/passwords.js";
import type { Role } from "../core/roles.js";
import type { StorageContext } from "./context.js";
import { parseStoredGrants } from "./credentials.js";
import { markRemoved } from "./removed-marks.js";
import { isUniqueViolation } from "./driver-errors.js";
import { checkSignIn } from "./password-upgrade.js";
import type { Sql } from "./sql.js";

/** A dashboard member as shown to owners and the CLI: never the password hash. */
export interface Member {
  id: string;
  email: string;
  role: Role;
  grants: Grant[];
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  email: string;
  role: string;
  grants: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, email, role, grants, created_at, updated_at";
const toUser = (r: Row): Member => ({
  id: r.id,
  email: r.email,
  role: r.role === "owner" ? "owner" : "member",
  grants: parseStoredGrants(r.grants),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Repository factory; use through `ctx.db.members`. */
export function createMemberRepo(ctx: StorageContext) {
  const { sql } = ctx;
  const nowIso = () => new Date(ctx.now()).toISOString();
  const byId = (db: Sql, workspaceId: string, id: string) =>
    db.get<Row>(`SELECT ${COLUMNS} FROM dashboard_users WHERE workspace_id = ? AND id = ?`, [workspaceId, id]);

  /** Runs `fn` in a transaction that holds the workspace's owner set still (last-owner rule). */
  const withOwnersLocked = <T>(workspaceId: string, fn: (tx: Sql) => Promise<T>) =>
    sql.transaction(async (tx) => {
      // SQLite transactions are already serialized (BEGIN IMMEDIATE); PostgreSQL needs a lock so
      // two concurrent demotions cannot both see "another owner remains".
      if (tx.dialect === "postgresql") await tx.get("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", [workspaceId]);
      return fn(tx);
    });
  const otherOwners = async (tx: Sql, workspaceId: string, id: string) =>
    Number(
      (await tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM dashboard_users WHERE workspace_id = ? AND role = 'owner' AND id <> ?", [
        workspaceId,
        id,
      ]))?.n ?? 0,
    );

  return {
    /** Creates a member; 409 when the email is taken in this workspace. */
    async create(workspaceId: string, input: { email: string; password: string; role: Role; grants: Grant[] }): Promise<Member> {
      const { email, role, grants } = input;
      const at = nowIso();
      const row: Row = { id: randomUUID(), email, role, grants: JSON.stringify(grants), created_at: at, updated_at: at };
      const hash = await hashPassword(input.password, ctx.options.passwordParams);
      try {
        await sql.run(
          "INSERT INTO dashboard_users (id, workspace_id, email, password_hash, role, grants, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          [row.id, workspaceId, email, hash, role, row.grants, at, at],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A dashboard member with email ${email} already exists in this workspace`, { field: "email" });
        throw error;
      }
      return toUser(row);
    },

    async list(workspaceId: string): Promise<Member[]> {
      const rows = await sql.all<Row>(`SELECT ${COLUMNS} FROM dashboard_users WHERE workspace_id = ? ORDER BY created_at, id`, [workspaceId]);
      return rows.map(toUser);
    },

    async get(workspaceId: string, id: string): Promise<Member | undefined> {
      const row = await byId(sql, workspaceId, id);
      return row && toUser(row);
    },

    /**
     * Changes role and/or grants. Demoting the last owner is refused (409). Existing access tokens
     * keep what they carry until the next refresh (spec 3).
     */
    async update(workspaceId: string, id: string, patch: { role?: Role; grants?: Grant[] }): Promise<Member> {
      const { role, grants } = patch;
      return withOwnersLocked(workspaceId, async (tx) => {
        const row = await byId(tx, workspaceId, id);
        if (!row) throw notFound(`No dashboard member ${id} in this workspace`);
        if (row.role === "owner" && role === "member" && (await otherOwners(tx, workspaceId, id)) === 0) {
          throw conflict("Cannot demote the last owner of the workspace; make another member owner first");
        }
        const next: Row = { ...row, role: role ?? row.role, grants: grants ? JSON.stringify(grants) : row.grants, updated_at: nowIso() };
        await tx.run("UPDATE dashboard_users SET role = ?, grants = ?, updated_at = ? WHERE id = ?", [next.role, next.grants, next.updated_at, id]);
        return toUser(next);
      });
    },

    /**
     * Removes a member and every token of theirs at once. Removing the last owner is refused (409).
     * Each live refresh token (and one spent within the reuse grace, which a browser may still
     * present) leaves a marker in the shared state (dashboard-tokens.ts), so the person's next
     * refresh is told their access was removed rather than just refused.
     */
    async remove(workspaceId: string, id: string): Promise<{ id: string; deleted: true }> {
      const live = await withOwnersLocked(workspaceId, async (tx) => {
        const row = await byId(tx, workspaceId, id);
        if (!row) throw notFound(`No dashboard member ${id} in this workspace`);
        if (row.role === "owner" && (await otherOwners(tx, workspaceId, id)) === 0) {
          throw conflict("Cannot remove the last owner of the workspace");
        }
        // Tokens spent within the reuse grace too: the browser may still hold one as its cookie.
        const refresh = await tx.all<{ token_hash: string; expires_at: string }>(
          "SELECT token_hash, expires_at FROM dashboard_tokens WHERE user_id = ? AND kind = 'refresh' AND (used_at IS NULL OR used_at >= ?) AND expires_at > ?",
          [id, new Date(ctx.now() - REFRESH_REUSE_GRACE_MS).toISOString(), nowIso()],
        );
        await tx.run("DELETE FROM dashboard_tokens WHERE user_id = ?", [id]);
        await tx.run("DELETE FROM dashboard_users WHERE id = ?", [id]);
        return refresh;
      });
      // After commit, and only a courtesy: a lost marker makes the refusal say "ended" instead.
      await markRemoved(ctx, live).catch((error: unknown) => ctx.logger.warn("could not mark a removed member's sessions:", (error as Error).message));
      return { id, deleted: true };
    },

    /**
     * The member an email and password name, or undefined — at the same cost whether the email is
     * unknown, the password wrong, or the "password" is an API key (spec 5.1: a key cannot sign in).
     */
    async verifyLogin(workspaceId: string, email: unknown, password: unknown): Promise<Member | undefined> {
      const normalized = tryNormalizeEmail(email);
      const row = normalized
        ? await sql.get<Row & { password_hash: string }>(
            `SELECT ${COLUMNS}, password_hash FROM dashboard_users WHERE workspace_id = ? AND email = ?`,
            [workspaceId, normalized],
          )
        : undefined;
      const signedIn = await checkSignIn(ctx, "dashboard_users", row, password);
      return signedIn && toUser(signedIn);
    },
  };
}
