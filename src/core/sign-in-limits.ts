/**
 * The numbers of sign-in throttling (spec 7 leaves rate limits open; we follow OWASP's
 * Authentication Cheat Sheet): how many failed sign-ins pass freely, and how the back-off grows
 * after them. The counting itself is in http/middleware/login-limit.ts.
 *
 * @example
 * backoffFor(DEFAULT_SIGN_IN_LIMITS, 0); // 1000: the first back-off after the free failures
 * backoffFor(DEFAULT_SIGN_IN_LIMITS, 3); // 8000
 */

/** Sign-in throttling settings (`createService({ signInLimits })`, `svc serve --login-*`). */
export interface SignInLimits {
  /** Failed sign-ins on one account from one client address before back-off starts. Default 10. */
  accountFailures: number;
  /** Failed sign-ins from one client address, all accounts together, before back-off starts. Default 100. */
  addressFailures: number;
  /** The first back-off, in ms; it doubles with each further failure. Default 1000. */
  backoffMs: number;
  /** The longest back-off, in ms. Default 900000 (15 minutes). */
  maxBackoffMs: number;
  /** Failures are forgotten this long after the last one, in ms; at least maxBackoffMs. Default 3600000 (1 hour). */
  windowMs: number;
}

/** @example DEFAULT_SIGN_IN_LIMITS.accountFailures; // 10 */
export const DEFAULT_SIGN_IN_LIMITS: Readonly<SignInLimits> = Object.freeze({
  accountFailures: 10,
  addressFailures: 100,
  backoffMs: 1000,
  maxBackoffMs: 15 * 60 * 1000,
  windowMs: 60 * 60 * 1000,
});

/**
 * The wait imposed after the failure that is `beyondFree` failures past the free ones (0 for the
 * last free one): backoffMs · 2^beyondFree, capped at maxBackoffMs.
 *
 * @example
 * backoffFor({ ...DEFAULT_SIGN_IN_LIMITS, maxBackoffMs: 5000 }, 10); // 5000
 */
export function backoffFor(limits: SignInLimits, beyondFree: number): number {
  // 2^31 ms is 24 days: past that exponent the cap has long applied.
  const exponent = Math.min(Math.max(0, beyondFree), 31);
  return Math.min(limits.backoffMs * 2 ** exponent, limits.maxBackoffMs);
}

/**
 * Completes partial settings with the defaults and checks them; throws naming the bad field.
 *
 * @example
 * resolveSignInLimits({ accountFailures: 5 }); // { accountFailures: 5, addressFailures: 100, … }
 */
export function resolveSignInLimits(partial: Partial<SignInLimits> = {}): SignInLimits {
  const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...partial };
  for (const [name, value] of Object.entries(limits)) {
    if (!Object.hasOwn(DEFAULT_SIGN_IN_LIMITS, name)) throw new Error(`signInLimits.${name} is not a setting (known: ${Object.keys(DEFAULT_SIGN_IN_LIMITS).join(", ")})`);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`signInLimits.${name} must be a positive integer, got ${String(value)}`);
  }
  if (limits.maxBackoffMs < limits.backoffMs) throw new Error("signInLimits.maxBackoffMs must be at least backoffMs");
  // A shorter window would forget the failures while their back-off still runs, resetting it.
  if (limits.windowMs < limits.maxBackoffMs) throw new Error("signInLimits.windowMs must be at least maxBackoffMs");
  return limits;
}
