/**
 * Sign-in throttling for dashboard and account logins (issue 3; spec 7 leaves rate limits open):
 * attempts are counted per account (workspace + email) and per client address, cluster-wide
 * through ctx.shared (Redis when configured). Every attempt counts, successful or not, and the
 * check runs before any password work, so a flood costs no scrypt time. Over a limit: 429 with
 * Retry-After.
 */
import type { H3Event } from "h3";
import { createHash } from "node:crypto";
import { rateLimited } from "../../core/errors.js";
import { tryNormalizeEmail } from "../../core/email.js";
import type { ServiceContext } from "../../services/context.js";

/** The limits; documented in docs/access.md. */
export const LOGIN_LIMITS = {
  /** Attempts on one account (one email in one workspace) per window. */
  perAccount: 10,
  /** Attempts from one client address per window, all accounts and workspaces together. */
  perAddress: 100,
  windowMs: 15 * 60 * 1000,
} as const;

/**
 * Counts one sign-in attempt and throws 429 when the account or the address is over its limit.
 * `surface` keeps dashboard users and end users with the same email apart.
 */
export async function limitLogin(
  event: H3Event,
  service: ServiceContext,
  surface: "dashboard" | "account",
  workspaceId: string,
  email: unknown,
): Promise<void> {
  const { windowMs } = LOGIN_LIMITS;
  const address = clientAddress(event, service.options.trustProxy);
  // Emails are personal data: the shared store (maybe Redis) sees only a digest.
  const account = digest(`${surface}:${workspaceId}:${tryNormalizeEmail(email) ?? String(email ?? "").slice(0, 256)}`);
  const [byAccount, byAddress] = await Promise.all([
    service.shared.hit(`login:account:${account}`, windowMs),
    service.shared.hit(`login:address:${address}`, windowMs),
  ]);
  const over = [
    byAccount.count > LOGIN_LIMITS.perAccount ? byAccount.resetMs : 0,
    byAddress.count > LOGIN_LIMITS.perAddress ? byAddress.resetMs : 0,
  ];
  const wait = Math.max(...over);
  if (wait > 0) throw rateLimited(Math.max(1, Math.ceil(wait / 1000)));
}

/**
 * The client's address: the socket peer, or behind a trusted proxy the right-most
 * X-Forwarded-For entry (the one the proxy appended; left-most entries are client-controlled).
 */
export function clientAddress(event: H3Event, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = event.req.headers.get("x-forwarded-for")?.split(",").pop()?.trim();
    if (forwarded) return forwarded;
  }
  const req = event.req as Request & { ip?: string; context?: { clientAddress?: string } };
  return req.ip ?? req.context?.clientAddress ?? "unknown";
}

function digest(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex").slice(0, 32);
}
