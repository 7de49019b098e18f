/**
 * API key use cases (spec 2.1, 3, 5.4.6, 5.5), shared by HTTP, the CLI and bootstrap: create
 * (the value is returned this once), list and get (never values or hashes), revoke (immediate and
 * permanent), and the import of keys issued before the grant model.
 *
 * @example
 * const { value } = await createKey(ctx, ws.id, { name: "build", grants: ["entries:read"] });
 */
import { notFound } from "../core/errors.js";
import { parseWithSchema } from "../core/body-schema.js";
import { apiKeyBodySchema } from "../core/keys.js";
import type { ApiKeyRecord, CreatedApiKey, LegacyImport } from "../storage/api-keys.js";
import type { ServiceContext } from "./context.js";

export type { ApiKeyRecord, CreatedApiKey, LegacyImport };

/** Active keys of a workspace, oldest first; never their values. */
export function listKeys(ctx: ServiceContext, workspaceId: string): Promise<ApiKeyRecord[]> {
  return ctx.db.apiKeys.list(workspaceId);
}

/** One active key, or 404. */
export async function getKey(ctx: ServiceContext, workspaceId: string, id: string): Promise<ApiKeyRecord> {
  const key = await ctx.db.apiKeys.get(workspaceId, id);
  if (!key) throw notFound(`No API key ${id} in this workspace`);
  return key;
}

/**
 * Creates a key; 400 naming the field for a bad name, grant or narrowing (`collections`: names
 * that follow the collection-name rule, existing or not yet; `published_only`: a boolean). The
 * value is in the result only.
 */
export function createKey(
  ctx: ServiceContext,
  workspaceId: string,
  input: { name: unknown; grants?: unknown; collections?: unknown; published_only?: unknown },
): Promise<CreatedApiKey> {
  const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const { name, grants, collections, published_only } = parseWithSchema(apiKeyBodySchema, body, { named: true });
  return ctx.db.apiKeys.create(workspaceId, { name, grants: grants ?? [], collections: collections ?? null, published_only: published_only ?? false });
}

/** Revokes a key at once and for good; revoking a revoked key again is a no-op, an unknown id 404. */
export function revokeKey(ctx: ServiceContext, workspaceId: string, id: string): Promise<{ id: string; revoked: true }> {
  return ctx.db.apiKeys.revoke(workspaceId, id);
}

/**
 * Imports keys from before the grant model by their SHA-256 hashes (spec 5.4.6, 9.3); each gets
 * the legacy grants, a hash already stored is skipped. 400 for a value that is not a hex digest.
 */
export function importLegacyKeys(ctx: ServiceContext, workspaceId: string, hashes: readonly string[], namePrefix?: string): Promise<LegacyImport> {
  return ctx.db.apiKeys.importLegacy(workspaceId, hashes, namePrefix);
}
