/**
 * Rehash on sign-in: a stored password hash weaker than today's scrypt parameters is replaced at
 * the owner's next successful sign-in, the only moment the password itself is at hand. Dashboard
 * users and end users alike.
 *
 * @example
 * if (await verifyPassword(pw, row.password_hash)) await upgradePasswordHash(ctx, "end_users", row.id, row.password_hash, pw);
 */
import { hashPassword, looksLikeToken, needsRehash, verifyAgainstDummy, verifyPassword } from "../core/passwords.js";
import type { StorageContext } from "./context.js";

/**
 * Replaces `stored` with a hash at `ctx.options.passwordParams` when it is weaker. Compare-and-set
 * on the old hash, so a password changed in the meantime is never overwritten. A failure is
 * logged and swallowed: the sign-in it rides on still succeeds, and the next one tries again.
 */
export async function upgradePasswordHash(
  ctx: StorageContext,
  table: "dashboard_users" | "end_users",
  id: string,
  stored: string,
  password: string,
): Promise<void> {
  if (!needsRehash(stored, ctx.options.passwordParams)) return;
  try {
    const fresh = await hashPassword(password, ctx.options.passwordParams);
    await ctx.sql.run(`UPDATE ${table} SET password_hash = ? WHERE id = ? AND password_hash = ?`, [fresh, id, stored]);
  } catch (error) {
    ctx.logger.warn("could not upgrade a password hash:", (error as Error).message);
  }
}

/**
 * The one sign-in check of dashboard members and end users: `row` when `password` opens it, else
 * undefined, at equal cost for an unknown email (`row` undefined), a wrong password, a deactivated
 * row (`active` falsy) or a token sent as the password (spec 5.1: a key cannot sign in). A weak
 * hash is upgraded on success.
 */
export async function checkSignIn<R extends { id: string; password_hash: string; active?: number | boolean }>(
  ctx: StorageContext,
  table: "dashboard_users" | "end_users",
  row: R | undefined,
  password: unknown,
): Promise<R | undefined> {
  const pw = typeof password === "string" ? password : "";
  if (!row || looksLikeToken(pw)) return verifyAgainstDummy(pw, ctx.options.passwordParams).then(() => undefined);
  const ok = await verifyPassword(pw, row.password_hash, ctx.options.passwordParams);
  if (!ok || (row.active !== undefined && !row.active)) return undefined;
  await upgradePasswordHash(ctx, table, row.id, row.password_hash, pw);
  return row;
}
