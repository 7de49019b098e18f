/**
 * Resolving a presented bearer token (already hashed) into the stored credential it names.
 * Only hashes are stored (spec 2.1); lookups go through unique indexes.
 */
import type { Grant } from "../core/grants.js";
import { isGrant } from "../core/grants.js";
import { collectionsFromColumn } from "../core/key-scope.js";
import type { StorageContext } from "./context.js";
import { parseArrayColumn, parseObjectColumn } from "./json-column.js";

export interface KeyCredential {
  id: string;
  workspaceId: string;
  grants: Grant[];
  /** The key's narrowing (core/key-scope.ts): null = every collection. */
  collections: string[] | null;
  publishedOnly: boolean;
  lastUsedAt: string | null;
}
export interface DashboardCredential {
  memberId: string;
  workspaceId: string;
  kind: "access" | "refresh";
  role: "owner" | "member";
  grants: Grant[];
  expiresAt: string;
}
export interface AccountCredential {
  userId: string;
  workspaceId: string;
  email: string;
  emailVerified: boolean;
  attributes: Record<string, unknown>;
  active: boolean;
  expiresAt: string;
}

/** Stored grants are parsed leniently: an unknown string is dropped, never widened. */
export function parseStoredGrants(json: string): Grant[] {
  return parseArrayColumn(json).filter(isGrant);
}

export function createCredentialRepo(ctx: StorageContext) {
  const { sql } = ctx;
  return {
    async apiKey(hash: string): Promise<KeyCredential | undefined> {
      const row = await sql.get<{ id: string; workspace_id: string; grants: string; collections: string | null; published_only: number | boolean; last_used_at: string | null }>(
        "SELECT id, workspace_id, grants, collections, published_only, last_used_at FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
        [hash],
      );
      return (
        row && {
          id: row.id,
          workspaceId: row.workspace_id,
          grants: parseStoredGrants(row.grants),
          collections: collectionsFromColumn(row.collections),
          publishedOnly: Number(row.published_only) === 1,
          lastUsedAt: row.last_used_at,
        }
      );
    },
    /** Sets last_used_at = at unless it is newer than `notAfter` (ISO strings order as times). */
    async touchKey(id: string, at: string, notAfter: string): Promise<void> {
      await sql.run("UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)", [at, id, notAfter]);
    },
    async dashboardToken(hash: string): Promise<DashboardCredential | undefined> {
      const row = await sql.get<{ user_id: string; workspace_id: string; kind: string; role: string; grants: string; expires_at: string }>(
        "SELECT user_id, workspace_id, kind, role, grants, expires_at FROM dashboard_tokens WHERE token_hash = ?",
        [hash],
      );
      return (
        row && {
          memberId: row.user_id,
          workspaceId: row.workspace_id,
          kind: row.kind === "refresh" ? "refresh" : "access",
          role: row.role === "owner" ? "owner" : "member",
          grants: parseStoredGrants(row.grants),
          expiresAt: row.expires_at,
        }
      );
    },
    async accountSession(hash: string): Promise<AccountCredential | undefined> {
      const row = await sql.get<{ user_id: string; workspace_id: string; email: string; email_verified_at: string | null; attributes: string; active: number; expires_at: string }>(
        "SELECT s.user_id, s.workspace_id, u.email, u.email_verified_at, u.attributes, u.active, s.expires_at FROM account_sessions s JOIN end_users u ON u.id = s.user_id WHERE s.token_hash = ?",
        [hash],
      );
      if (!row) return undefined;
      const attributes = parseObjectColumn(row.attributes);
      return {
        userId: row.user_id,
        workspaceId: row.workspace_id,
        email: row.email,
        emailVerified: row.email_verified_at !== null,
        attributes,
        active: Boolean(row.active),
        expiresAt: row.expires_at,
      };
    },
  };
}
