/**
 * API keys (spec 2.1, 3, 5.2, 8): created by an owner with a name and grants; the value is
 * returned once and only its SHA-256 is stored; listing never shows values or hashes; revocation
 * is immediate and permanent (the row is kept with revoked_at, never reactivated).
 *
 * @example
 * const keys = ctx.db.apiKeys;
 * const { value, key } = await keys.create(ws.id, { name: "build", grants: ["entries:read"] });
 */
import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "../core/errors.js";
import { LEGACY_KEY_GRANTS, type Grant } from "../core/grants.js";
import { generateApiKey, hashToken } from "../core/keys.js";
import { collectionsFromColumn, type KeyNarrowing } from "../core/key-scope.js";
import type { StorageContext } from "./context.js";
import { parseStoredGrants } from "./credentials.js";
import { isUniqueViolation } from "./driver-errors.js";

/** A key as listed: never its value, never its hash. */
export interface ApiKeyRecord extends KeyNarrowing {
  id: string;
  name: string;
  grants: Grant[];
  last_used_at: string | null;
  created_at: string;
}

/** What `create` returns: the record plus the value, shown this once. */
export interface CreatedApiKey extends ApiKeyRecord {
  value: string;
}

/** Result of `importLegacy`: keys created, and hashes that were already stored. */
export interface LegacyImport {
  imported: ApiKeyRecord[];
  skipped: string[];
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const COLUMNS = "id, name, grants, collections, published_only, last_used_at, created_at";

interface Row {
  id: string;
  name: string;
  grants: string;
  collections: string | null;
  published_only: number | boolean;
  last_used_at: string | null;
  created_at: string;
}

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  grants: parseStoredGrants(r.grants),
  collections: collectionsFromColumn(r.collections),
  published_only: Number(r.published_only) === 1,
  last_used_at: r.last_used_at,
  created_at: r.created_at,
});

const UNNARROWED: KeyNarrowing = { collections: null, published_only: false };

/** Repository factory; use through `ctx.db.apiKeys`. */
export function createApiKeyRepo(ctx: StorageContext) {
  const { sql } = ctx;
  const nowIso = () => new Date(ctx.now()).toISOString();

  const insert = async (workspaceId: string, name: string, hash: string, grants: Grant[], legacy: boolean, narrowing: KeyNarrowing = UNNARROWED) => {
    const row: Row = {
      id: randomUUID(),
      name,
      grants: JSON.stringify(grants),
      collections: narrowing.collections === null ? null : JSON.stringify(narrowing.collections),
      published_only: narrowing.published_only ? 1 : 0,
      last_used_at: null,
      created_at: nowIso(),
    };
    await sql.run(
      "INSERT INTO api_keys (id, workspace_id, name, key_hash, grants, collections, published_only, legacy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [row.id, workspaceId, row.name, hash, row.grants, row.collections, row.published_only, legacy, row.created_at],
    );
    return toRecord(row);
  };

  return {
    /**
     * Creates a key from a validated name, grants and narrowing (services/keys.ts validates them);
     * the returned `value` is the only time it exists outside the caller.
     */
    async create(workspaceId: string, input: { name: string; grants: Grant[] } & Partial<KeyNarrowing>): Promise<CreatedApiKey> {
      const value = generateApiKey();
      const narrowing = { collections: input.collections ?? null, published_only: input.published_only ?? false };
      const record = await insert(workspaceId, input.name, hashToken(value), input.grants, false, narrowing);
      return { ...record, value };
    },

    /** Active keys of a workspace, oldest first. */
    async list(workspaceId: string): Promise<ApiKeyRecord[]> {
      const rows = await sql.all<Row>(
        `SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = ? AND revoked_at IS NULL ORDER BY created_at, id`,
        [workspaceId],
      );
      return rows.map(toRecord);
    },

    /** One active key, or undefined. */
    async get(workspaceId: string, id: string): Promise<ApiKeyRecord | undefined> {
      const row = await sql.get<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL`, [
        workspaceId,
        id,
      ]);
      return row && toRecord(row);
    },

    /**
     * Revokes a key: immediate (every lookup filters revoked_at) and permanent (nothing clears
     * it). Revoking a revoked key is a no-op; an unknown id is 404.
     */
    async revoke(workspaceId: string, id: string): Promise<{ id: string; revoked: true }> {
      const row = await sql.get<{ revoked_at: string | null }>("SELECT revoked_at FROM api_keys WHERE workspace_id = ? AND id = ?", [
        workspaceId,
        id,
      ]);
      if (!row) throw notFound(`No API key ${id} in this workspace`);
      if (row.revoked_at === null) {
        await sql.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [nowIso(), id]);
      }
      return { id, revoked: true };
    },

    /**
     * Imports keys issued before the grant model from their SHA-256 hashes (spec 5.4.6, 9.3): each
     * gets LEGACY_KEY_GRANTS, what the old model let any key do. A hash already stored (in any
     * workspace) is skipped, never re-granted.
     */
    async importLegacy(workspaceId: string, hashes: readonly string[], namePrefix = "legacy key"): Promise<LegacyImport> {
      const clean = [...new Set(hashes.map((h) => String(h).trim().toLowerCase()))];
      const bad = clean.find((h) => !SHA256_HEX.test(h));
      if (bad !== undefined) throw badRequest(`Not a SHA-256 hex digest: ${JSON.stringify(bad.slice(0, 80))}`, { field: "hash" });
      if (clean.length === 0) throw badRequest("Give at least one legacy key hash");
      const imported: ApiKeyRecord[] = [];
      const skipped: string[] = [];
      for (const hash of clean) {
        try {
          imported.push(await insert(workspaceId, `${namePrefix} ${hash.slice(0, 8)}`, hash, [...LEGACY_KEY_GRANTS], true));
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          skipped.push(hash);
        }
      }
      return { imported, skipped };
    },
  };
}
