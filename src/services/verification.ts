/**
 * Verified end-user emails (docs/identity.md): a one-time token sent through the configured mail
 * transport (services/mail.ts) proves the account receives mail at its address; until then rules
 * do not see the address (core/rules.ts).
 */
import { badRequest } from "../core/errors.js";
import { INVALID_VERIFICATION_TOKEN } from "../core/end-users.js";
import { EMAIL_VERIFICATION_TTL_MS } from "../core/lifetimes.js";
import type { ServiceContext } from "./context.js";
import type { Account } from "../storage/accounts.js";
import { requireMailTransport, sendMessage, type MailMessage } from "./mail.js";

const VERIFY_PATH = "/api/v1/accounts/verify";

/**
 * Issues a fresh token for the account's current address (earlier ones stop working) and mails
 * it; 503 without a transport (no token issued) or when sending fails (`failed` is the message).
 */
export async function sendVerification(
  ctx: ServiceContext,
  workspace: { id: string; slug: string; name: string },
  host: string,
  account: { id: string; email: string },
  failed: string,
): Promise<void> {
  requireMailTransport(ctx, "Email verification");
  const { token, expires_at } = await ctx.db.emailVerifications.issue(workspace.id, account.id, account.email);
  const message: MailMessage = {
    kind: "email-verification",
    to: account.email,
    subject: `Confirm your email address for ${workspace.name}`,
    text: [
      `Someone (hopefully you) created an account for ${account.email} on ${host}.`,
      `To confirm this address, send this code within ${EMAIL_VERIFICATION_TTL_MS / 3_600_000} hours: ${token}`,
      `(POST https://${host}${VERIFY_PATH} with {"token": "<code>"}). If it was not you, ignore this message.`,
    ].join("\n"),
    token,
    host,
    verify_path: VERIFY_PATH,
    workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    expires_at,
  };
  await sendMessage(ctx, message, failed);
}

/** Spends a token; the verified account, or 400 for an unknown, used or expired one. */
export async function verifyEmail(ctx: ServiceContext, workspaceId: string, token: unknown): Promise<Account> {
  const userId = await ctx.db.emailVerifications.consume(workspaceId, token);
  const account = userId === undefined ? undefined : await ctx.db.accounts.get(workspaceId, userId);
  if (!account) throw badRequest(INVALID_VERIFICATION_TOKEN, { field: "token" });
  return account;
}
