/**
 * Identity end-user accounts as their owners use them (spec 2.4, 4.4, 5.6): self sign-up, sign-in
 * to a 30-day account session (core/lifetimes.ts), sign-out and "who am I". Email verification is
 * services/verification.ts; the dashboard's management of end users is services/end-users.ts.
 *
 * @example
 * const account = await signUp(ctx, ws.id, { email, password });
 * const { token, expires_at } = await startAccountSession(ctx, ws.id, account.id);
 */
import { conflict, unauthorized } from "../core/errors.js";
import { parseWithSchema } from "../core/body-schema.js";
import { signupBodySchema } from "../core/end-users.js";
import type { Account } from "../storage/accounts.js";
import type { ServiceContext } from "./context.js";

export type { Account };

/** Creates an active, unverified account; 400 naming the field, 409 when the email is taken. */
export async function signUp(ctx: ServiceContext, workspaceId: string, input: { email: unknown; password: unknown }): Promise<Account> {
  const { email, password } = parseWithSchema(signupBodySchema, input, { named: true });
  const user = await ctx.db.endUsers.create(workspaceId, { email, password, attributes: {}, active: true, emailVerified: false });
  if (!user) throw conflict("An account with this email already exists; sign in instead");
  return { id: user.id, email: user.email, email_verified: user.email_verified, attributes: user.attributes, created_at: user.created_at };
}

/**
 * The active account an email and password name, or undefined, at equal cost for an unknown
 * email, a wrong password, a deactivated account or a token sent as the password.
 */
export function verifyAccountLogin(ctx: ServiceContext, workspaceId: string, email: unknown, password: unknown): Promise<Account | undefined> {
  return ctx.db.accounts.verifyLogin(workspaceId, email, password);
}

/** Issues an account session: 30 days from now, never extended. */
export function startAccountSession(ctx: ServiceContext, workspaceId: string, userId: string): Promise<{ token: string; expires_at: string }> {
  return ctx.db.accounts.issueSession(workspaceId, userId);
}

/** Ends the presented account session. */
export function endAccountSession(ctx: ServiceContext, workspaceId: string, token: string): Promise<void> {
  return ctx.db.accounts.logout(workspaceId, token);
}

/** The account of a live session, or 401 when it is gone. */
export async function getAccount(ctx: ServiceContext, workspaceId: string, id: string): Promise<Account> {
  const account = await ctx.db.accounts.get(workspaceId, id);
  if (!account) throw unauthorized();
  return account;
}
