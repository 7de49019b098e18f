/**
 * Short forms of the credential helpers (test/helpers/credentials.ts) that return just the token.
 */
import type { Grant } from "../../src/core/grants.js";
import type { ServiceContext } from "../../src/services/context.js";
import { createTestKey, createTestSession } from "./credentials.js";

/** An owner's or member's dashboard access token, valid for an hour. */
export async function dashboardToken(ctx: ServiceContext, workspaceId: string, role: "owner" | "member" = "owner", grants: string[] = []): Promise<string> {
  return (await createTestSession(ctx, workspaceId, { role, grants: grants as Grant[] })).token;
}

/** An API key value holding `grants`. */
export async function apiKey(ctx: ServiceContext, workspaceId: string, grants: string[] = []): Promise<string> {
  return (await createTestKey(ctx, workspaceId, grants as Grant[])).token;
}
