/**
 * Sign-in throttling for dashboard and account logins, after OWASP's Authentication Cheat Sheet
 * (spec 7 leaves rate limits open). Failed attempts are counted per account + client address, and
 * more loosely per address across accounts, cluster-wide through ctx.shared (Redis when
 * configured). Past the free failures (core/sign-in-limits.ts) each attempt starts a back-off
 * that doubles per failure up to a cap; an attempt during it is refused (429 + Retry-After)
 * before any password work and is not counted. A success clears its account + address count, so
 * signing in often never locks anyone out, and failures from one address never stop the account
 * signing in from another.
 *
 * Every attempt is counted as a failure before its password is checked and uncounted when it
 * succeeds: a burst of parallel guesses is counted before the first verdict, not after.
 */
import type { H3Event } from "h3";
import { createHash } from "node:crypto";
import { addressKey } from "../../core/client-address.js";
import { rateLimited } from "../../core/errors.js";
import { tryNormalizeEmail } from "../../core/email.js";
import { backoffFor } from "../../core/sign-in-limits.js";
import type { ServiceContext } from "../../services/context.js";

/** One counted sign-in attempt; call `succeeded()` once the password is right. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

/**
 * Refuses (429) while the account + address or the address is in back-off; otherwise counts the
 * attempt as a failure until `succeeded()` says otherwise. `surface` keeps dashboard members and end
 * users with the same email apart.
 *
 * @example
 * const attempt = await beginSignIn(event, service, "dashboard", workspace.id, email);
 * if (!(await verify())) throw loginFailed(); // stays counted
 * await attempt.succeeded();
 */
export async function beginSignIn(
  event: H3Event,
  service: ServiceContext,
  surface: "dashboard" | "account",
  workspaceId: string,
  email: unknown,
): Promise<SignInAttempt> {
  const { shared } = service;
  const limits = service.options.signInLimits;
  const address = clientAddress(event, service.options.trustProxy);
  // Emails and addresses are personal data: the shared store (maybe Redis) sees only digests.
  const emailKey = tryNormalizeEmail(email) ?? String(email ?? "").slice(0, 256);
  const pair = `login:fail:${digest(`${surface}:${workspaceId}:${emailKey}:${address}`)}`;
  const perAddress = `login:fail-address:${digest(address)}`;
  const counters = [
    { key: pair, free: limits.accountFailures },
    { key: perAddress, free: limits.addressFailures },
  ];

  const waits = await Promise.all(counters.map((c) => shared.ttl(`${c.key}:wait`)));
  if (Math.max(...waits) > 0) throw tooMany(Math.max(...waits));

  const counts = await Promise.all(counters.map((c) => shared.add(c.key, 1, limits.windowMs)));
  const claimed: string[] = [];
  for (const [i, c] of counters.entries()) {
    if (counts[i]! < c.free) continue;
    // This attempt opens the next back-off; a parallel one that already opened it wins instead.
    if (await shared.claim(`${c.key}:wait`, backoffFor(limits, counts[i]! - c.free))) {
      claimed.push(`${c.key}:wait`);
      continue;
    }
    const wait = await shared.ttl(`${c.key}:wait`);
    await Promise.all([...counters.map((x) => shared.add(x.key, -1, limits.windowMs)), shared.remove(...claimed)]);
    throw tooMany(wait);
  }
  return {
    async succeeded() {
      await Promise.all([shared.remove(pair, `${pair}:wait`), shared.add(perAddress, -1, limits.windowMs)]);
    },
  };
}

/**
 * Counts an attempt that never succeeds in the throttle's sense: signups, which probe which
 * emails exist (409) and cost scrypt time, share the sign-in counts and back-off.
 */
export async function limitLogin(
  event: H3Event,
  service: ServiceContext,
  surface: "dashboard" | "account",
  workspaceId: string,
  email: unknown,
): Promise<void> {
  await beginSignIn(event, service, surface, workspaceId, email);
}

/**
 * The client's address key (core/client-address.ts: IPv4, or an IPv6 /64). The socket peer;
 * with `trustProxy`, the right-most X-Forwarded-For entry instead — the one the trusted proxy
 * appended (entries left of it are whatever the client sent). Without `trustProxy` the header is
 * ignored. "unknown" when the runtime gives no peer address (a bare `svc.fetch(request)`): such
 * requests then share one count.
 */
export function clientAddress(event: H3Event, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = addressKey(event.req.headers.get("x-forwarded-for")?.split(",").pop());
    if (forwarded) return forwarded;
  }
  const req = event.req as Request & { ip?: string; context?: { clientAddress?: string } };
  return addressKey(req.ip ?? req.context?.clientAddress) ?? "unknown";
}

function tooMany(waitMs: number) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return rateLimited(seconds, `Too many failed sign-in attempts; try again in ${seconds} second${seconds === 1 ? "" : "s"}`);
}

function digest(s: string): string {
  return createHash("sha256").update(s, "utf8").digest("hex").slice(0, 32);
}
