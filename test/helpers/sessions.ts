/**
 * Credentials for tests, written straight into storage: an owner's or member's dashboard access
 * token, an API key with chosen grants.
 */
import { randomUUID } from "node:crypto";
import { generateApiKey, generateToken, hashToken } from "../../src/core/keys.js";
import type { ServiceContext } from "../../src/service-context.js";

export async function dashboardToken(
  ctx: ServiceContext,
  workspaceId: string,
  role: "owner" | "member" = "owner",
  grants: string[] = [],
): Promise<string> {
  const userId = randomUUID();
  const now = new Date().toISOString();
  await ctx.sql.run(
    "INSERT INTO dashboard_users (id, workspace_id, email, password_hash, role, grants, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [userId, workspaceId, `${userId}@example.com`, "scrypt$invalid", role, JSON.stringify(grants), now, now],
  );
  const token = generateToken("dashboard_access");
  await ctx.sql.run(
    "INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, grants, created_at, expires_at) VALUES (?, 'access', ?, ?, ?, ?, ?, ?)",
    [hashToken(token), workspaceId, userId, role, JSON.stringify(grants), now, new Date(Date.now() + 3600_000).toISOString()],
  );
  return token;
}

export async function apiKey(ctx: ServiceContext, workspaceId: string, grants: string[] = []): Promise<string> {
  const value = generateApiKey();
  await ctx.sql.run("INSERT INTO api_keys (id, workspace_id, name, key_hash, grants, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
    randomUUID(),
    workspaceId,
    "test",
    hashToken(value),
    JSON.stringify(grants),
    new Date().toISOString(),
  ]);
  return value;
}
