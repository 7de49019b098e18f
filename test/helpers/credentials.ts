/**
 * Credentials for content tests, inserted straight into storage (independent of the
 * access-control routes): API keys, dashboard sessions, account sessions.
 */
import { randomUUID } from "node:crypto";
import { generateApiKey, generateToken, hashToken } from "../../src/core/keys.js";
import type { Grant } from "../../src/core/grants.js";
import type { ServiceContext } from "../../src/services/context.js";

const iso = (ms: number) => new Date(ms).toISOString();

/** An API key of `workspaceId` holding `grants`; returns its id and value. */
export async function createTestKey(ctx: ServiceContext, workspaceId: string, grants: Grant[], name = "test"): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = generateApiKey();
  await ctx.sql.run("INSERT INTO api_keys (id, workspace_id, name, key_hash, grants, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
    id,
    workspaceId,
    name,
    hashToken(token),
    JSON.stringify(grants),
    iso(Date.now()),
  ]);
  return { id, token };
}

/** A dashboard member with a valid one-hour access token. */
export async function createTestSession(
  ctx: ServiceContext,
  workspaceId: string,
  opts: { role?: "owner" | "member"; grants?: Grant[] } = {},
): Promise<{ userId: string; token: string }> {
  const userId = randomUUID();
  const role = opts.role ?? "owner";
  const grants = JSON.stringify(opts.grants ?? []);
  const now = Date.now();
  await ctx.sql.run(
    "INSERT INTO dashboard_users (id, workspace_id, email, password_hash, role, grants, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [userId, workspaceId, `${userId}@example.com`, "x", role, grants, iso(now), iso(now)],
  );
  const token = generateToken("dashboard_access");
  await ctx.sql.run(
    "INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, grants, created_at, expires_at) VALUES (?, 'access', ?, ?, ?, ?, ?, ?)",
    [hashToken(token), workspaceId, userId, role, grants, iso(now), iso(now + 3_600_000)],
  );
  return { userId, token };
}

/** An end user of an Identity workspace with a valid account session. */
export async function createTestAccount(ctx: ServiceContext, workspaceId: string): Promise<{ userId: string; token: string }> {
  const userId = randomUUID();
  const now = Date.now();
  await ctx.sql.run(
    "INSERT INTO end_users (id, workspace_id, email, password_hash, attributes, active, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', 1, ?, ?)",
    [userId, workspaceId, `${userId}@example.com`, "x", iso(now), iso(now)],
  );
  const token = generateToken("account_session");
  await ctx.sql.run("INSERT INTO account_sessions (token_hash, workspace_id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)", [
    hashToken(token),
    workspaceId,
    userId,
    iso(now),
    iso(now + 86_400_000),
  ]);
  return { userId, token };
}
