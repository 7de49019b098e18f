/**
 * Rehash on sign-in: a stored password hash weaker than today's scrypt parameters is replaced at
 * the owner's next successful sign-in, the only moment the password itself is at hand. Dashboard
 * users and end users alike.
 *
 * @example
 * if (await verifyPassword(pw, row.password_hash)) await upgradePasswordHash(ctx, "end_users", row.id, row.password_hash, pw);
 */
import { hashPassword, needsRehash } from "../core/passwords.js";
import type { ServiceContext } from "../service-context.js";

/**
 * Replaces `stored` with a hash at `ctx.options.passwordParams` when it is weaker. Compare-and-set
 * on the old hash, so a password changed in the meantime is never overwritten. A failure is
 * logged and swallowed: the sign-in it rides on still succeeds, and the next one tries again.
 */
export async function upgradePasswordHash(
  ctx: ServiceContext,
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
