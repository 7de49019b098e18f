/**
 * The workspace's end users as the dashboard manages them (users:*, spec 2.2): list, create,
 * change (email, password, attributes, active), delete; also the one writer of new end-user rows,
 * self sign-up included (services/accounts.ts). Sign-in and sessions are storage/accounts.ts. Personal data: nothing here logs. Deactivating or deleting a user deletes
 * their account sessions in the same transaction, so they stop working at once (the authenticator
 * also refuses inactive users).
 *
 * @example
 * const user = await ctx.db.endUsers.create(workspaceId, { email, password, attributes: {}, active: true, emailVerified: false });
 */
import { randomUUID } from "node:crypto";
import { conflict } from "../core/errors.js";
import { hashPassword } from "../core/passwords.js";
import type { StorageContext } from "./context.js";
import { isUniqueViolation } from "./driver-errors.js";
import { parseObjectColumn } from "./json-column.js";

/** An end user as the dashboard sees them; never the password hash. */
export interface EndUser {
  id: string;
  email: string;
  /** Verified addresses are the only ones rules see (docs/identity.md). */
  email_verified: boolean;
  attributes: Record<string, unknown>;
  active: boolean;
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  email: string;
  email_verified_at: string | null;
  attributes: string;
  active: number;
  created_at: string;
  updated_at: string;
}

/** A validated change; `password` is plain here and hashed on write. */
export interface EndUserChange {
  email?: string;
  password?: string;
  attributes?: Record<string, unknown>;
  active?: boolean;
  /** Set or clear verification; a new email without it is unverified. */
  emailVerified?: boolean;
}

const COLUMNS = "id, email, email_verified_at, attributes, active, created_at, updated_at";
/** 409 for an email another end user of the workspace has. */
export const endUserEmailTaken = () => conflict("An end user with this email already exists", { field: "email" });

/** Repository factory; use through `ctx.db.endUsers`. */
export function createEndUserRepo(ctx: StorageContext) {
  const { sql } = ctx;
  const get = async (workspaceId: string, id: string, db = sql) => {
    const row = await db.get<Row>(`SELECT ${COLUMNS} FROM end_users WHERE workspace_id = ? AND id = ?`, [workspaceId, id]);
    return row && toEndUser(row);
  };
  return {
    get,

    async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: EndUser[]; total: number }> {
      const [rows, total] = await Promise.all([
        sql.all<Row>(`SELECT ${COLUMNS} FROM end_users WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`, [workspaceId, page.limit, page.offset]),
        sql.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM end_users WHERE workspace_id = ?", [workspaceId]),
      ]);
      return { rows: rows.map(toEndUser), total: Number(total?.n ?? 0) };
    },

    /** Inserts a validated end user; undefined when the email is taken in this workspace. */
    async create(
      workspaceId: string,
      input: { email: string; password: string; attributes: Record<string, unknown>; active: boolean; emailVerified: boolean },
    ): Promise<EndUser | undefined> {
      const at = new Date(ctx.now()).toISOString();
      const hash = await hashPassword(input.password, ctx.options.passwordParams);
      const row: Row = {
        id: randomUUID(),
        email: input.email,
        email_verified_at: input.emailVerified ? at : null,
        attributes: JSON.stringify(input.attributes),
        active: input.active ? 1 : 0,
        created_at: at,
        updated_at: at,
      };
      try {
        await sql.run(
          "INSERT INTO end_users (id, workspace_id, email, email_verified_at, password_hash, attributes, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          [row.id, workspaceId, row.email, row.email_verified_at, hash, row.attributes, row.active, at, at],
        );
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
      return toEndUser(row);
    },

    /** Applies a change; undefined when there is no such user. Deactivation ends every session. */
    async update(workspaceId: string, id: string, change: EndUserChange): Promise<EndUser | undefined> {
      const hash = change.password === undefined ? undefined : await hashPassword(change.password, ctx.options.passwordParams);
      try {
        return await sql.transaction(async (tx) => {
          const before = await get(workspaceId, id, tx);
          if (!before) return undefined;
          const at = new Date(ctx.now()).toISOString();
          const email = change.email ?? before.email;
          // A new address is unverified unless the change says otherwise: nothing proved it yet.
          const verified = change.emailVerified ?? (email === before.email && before.email_verified);
          const after: EndUser = {
            ...before,
            email,
            email_verified: verified,
            attributes: change.attributes ?? before.attributes,
            active: change.active ?? before.active,
            updated_at: at,
          };
          await tx.run("UPDATE end_users SET email = ?, attributes = ?, active = ?, updated_at = ? WHERE id = ?", [
            after.email,
            JSON.stringify(after.attributes),
            after.active,
            at,
            id,
          ]);
          if (verified !== before.email_verified || email !== before.email) {
            await tx.run("UPDATE end_users SET email_verified_at = ? WHERE id = ?", [verified ? at : null, id]);
          }
          if (hash !== undefined) await tx.run("UPDATE end_users SET password_hash = ? WHERE id = ?", [hash, id]);
          // A new password or a deactivation ends every session; re-activation needs a new sign-in.
          if (!after.active || hash !== undefined) await tx.run("DELETE FROM account_sessions WHERE user_id = ?", [id]);
          return after;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw endUserEmailTaken();
        throw error;
      }
    },

    /** Deletes the user, their sessions and verification tokens; false when there is no such user. */
    async remove(workspaceId: string, id: string): Promise<boolean> {
      return sql.transaction(async (tx) => {
        if (!(await get(workspaceId, id, tx))) return false;
        await tx.run("DELETE FROM account_sessions WHERE user_id = ?", [id]);
        await tx.run("DELETE FROM email_verifications WHERE user_id = ?", [id]);
        await tx.run("DELETE FROM end_users WHERE workspace_id = ? AND id = ?", [workspaceId, id]);
        return true;
      });
    },
  };
}

function toEndUser(row: Row): EndUser {
  const attributes = parseObjectColumn(row.attributes);
  return {
    id: row.id,
    email: row.email,
    email_verified: row.email_verified_at !== null,
    attributes,
    active: Boolean(row.active),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
