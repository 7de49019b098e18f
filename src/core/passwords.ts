/**
 * Dashboard and account passwords: scrypt hashing (node:crypto), constant-time verification, a
 * dummy verification for unknown emails, the check that a stored hash is weaker than today's
 * parameters (so sign-in can rehash it), and the length rule. Pure apart from crypto.
 *
 * Stored form: `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`. Passwords are NFC-normalized
 * before hashing so the same visible password matches whatever the client's keyboard sent.
 * The cost parameters and the derivation itself are in scrypt.ts.
 *
 * @example
 * const stored = await hashPassword("correct horse battery");
 * await verifyPassword("correct horse battery", stored); // true
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { checkedBy } from "./body-schema.js";
import { badRequest } from "./errors.js";
import { isTokenFormat, tokenKind } from "./keys.js";
import { derive, OWASP_SCRYPT, type ScryptParams } from "./scrypt.js";

/**
 * The length rule, in Unicode code points.
 *
 * @example
 * PASSWORD_MIN_LENGTH; // 8
 */
export const PASSWORD_MIN_LENGTH = 8;
/** @example PASSWORD_MAX_LENGTH; // 1024 */
export const PASSWORD_MAX_LENGTH = 1024;

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
const B64 = /^[A-Za-z0-9+/]+={0,2}$/;
const INT = /^[1-9][0-9]{0,7}$/;

/**
 * A well-formed stored hash that no password matches (random salt and hash, current parameters).
 * Verifying against it costs the same as a real verification.
 *
 * @example
 * await verifyPassword("anything", DUMMY_PASSWORD_HASH); // false
 */
export const DUMMY_PASSWORD_HASH = encode(OWASP_SCRYPT, randomBytes(SALT_LENGTH), randomBytes(KEY_LENGTH));

/**
 * Checks the password rule: a string of 8 to 1024 characters (code points). Throws 400 naming it.
 *
 * @example
 * validatePassword("hunter2"); // throws 400 "password must be at least 8 characters"
 */
export function validatePassword(pw: unknown): asserts pw is string {
  if (typeof pw !== "string") throw badRequest("password must be a string", { field: "password" });
  // A string longer than 2 × max code units has more than max code points; skip counting it.
  const length = pw.length > 2 * PASSWORD_MAX_LENGTH ? Infinity : [...pw].length;
  if (length < PASSWORD_MIN_LENGTH) {
    throw badRequest(`password must be at least ${PASSWORD_MIN_LENGTH} characters`, { field: "password" });
  }
  if (length > PASSWORD_MAX_LENGTH) {
    throw badRequest(`password must be at most ${PASSWORD_MAX_LENGTH} characters`, { field: "password" });
  }
}

/**
 * Hashes a password that passes `validatePassword` with scrypt (by default OWASP_SCRYPT:
 * N=2^17, r=8, p=1), a 64-byte key and a random 16-byte salt.
 *
 * @example
 * await hashPassword("correct horse battery"); // "scrypt$131072$8$1$<salt>$<hash>"
 */
export async function hashPassword(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  validatePassword(password);
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, KEY_LENGTH, params);
  return encode(params, salt, hash);
}

/**
 * True when `stored` is a hash of ours that is weaker than `params` in any parameter (N, r, p or
 * key length): sign-in then rehashes it with the password just verified. Never true for a
 * stronger hash, so a service running a lower cost never downgrades one.
 *
 * @example
 * needsRehash("scrypt$16384$8$1$…"); // true: below OWASP_SCRYPT
 */
export function needsRehash(stored: string, params: ScryptParams = OWASP_SCRYPT): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  return parsed.n < params.N || parsed.r < params.r || parsed.p < params.p || parsed.hash.length < KEY_LENGTH;
}

/**
 * True when `password` matches `stored`. Constant-time comparison; resolves `false` (never
 * rejects) for a wrong password, a non-string, or a malformed stored value — the malformed case
 * still spends one dummy derivation at `params` (the cost new hashes get) so timing does not tell
 * it apart.
 *
 * @example
 * await verifyPassword(body.password, user.password_hash); // true | false
 */
export async function verifyPassword(password: string, stored: string, params: ScryptParams = OWASP_SCRYPT): Promise<boolean> {
  const parsed = parse(stored);
  if (typeof password !== "string" || password.length > 4 * PASSWORD_MAX_LENGTH) return false;
  if (!parsed) return verifyAgainstDummy(password, params);
  try {
    const actual = await derive(password, parsed.salt, parsed.hash.length, { N: parsed.n, r: parsed.r, p: parsed.p });
    return timingSafeEqual(actual, parsed.hash);
  } catch {
    return false;
  }
}

/**
 * Spends the time of one verification at `params` (pass the cost new hashes get) and resolves
 * `false`: call it when a login names an unknown email, so the response time does not reveal
 * which emails exist.
 *
 * @example
 * const ok = user ? await verifyPassword(pw, user.password_hash) : await verifyAgainstDummy(pw);
 */
export async function verifyAgainstDummy(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<false> {
  const dummy = parse(DUMMY_PASSWORD_HASH)!;
  const text = typeof password === "string" ? password.slice(0, 4 * PASSWORD_MAX_LENGTH) : "";
  try {
    const actual = await derive(text, dummy.salt, dummy.hash.length, params);
    timingSafeEqual(actual, dummy.hash);
  } catch {
    // unreachable in practice; the answer is false either way
  }
  return false;
}

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** Twice OWASP's 128 MiB: a stored hash asking for more is refused as malformed. */
const MAX_DERIVATION_BYTES = 2 ** 28;

/** Parses a stored value; bounds the parameters so a bad row cannot make us allocate gigabytes. */
function parse(stored: unknown): Parsed | undefined {
  if (typeof stored !== "string" || stored.length > 1024) return undefined;
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined;
  const [, ns, rs, ps, saltB64, hashB64] = parts;
  if (!INT.test(ns) || !INT.test(rs) || !INT.test(ps) || !B64.test(saltB64) || !B64.test(hashB64)) {
    return undefined;
  }
  const n = Number(ns);
  const r = Number(rs);
  const p = Number(ps);
  if (n < 1024 || n > 2 ** 20 || (n & (n - 1)) !== 0 || r > 32 || p > 16 || 128 * n * r > MAX_DERIVATION_BYTES) return undefined;
  const salt = Buffer.from(saltB64, "base64");
  const hash = Buffer.from(hashB64, "base64");
  if (salt.length < SALT_LENGTH || hash.length < 16 || hash.length > 128) return undefined;
  return { n, r, p, salt, hash };
}

function encode({ N, r, p }: ScryptParams, salt: Buffer, hash: Buffer): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/**
 * `validatePassword` plus one rule for new passwords: a value shaped like a bearer token (an API
 * key, a session or refresh token) is refused, so a key can never be a password (spec 5.1).
 *
 * @example
 * validateNewPassword(generateApiKey()); // throws 400
 */
export function validateNewPassword(pw: unknown): asserts pw is string {
  validatePassword(pw);
  if (looksLikeToken(pw)) throw badRequest("password must not be an API key or token", { field: "password" });
}

/** A new password as a body sends it; its length (in code points) and form are checked by validateNewPassword. */
export const newPasswordSchema = z
  .string({ error: "password must be a string" })
  .transform(
    checkedBy((pw: string) => {
      validateNewPassword(pw);
      return pw;
    }),
  )
  .meta({ description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; never an API key or token` });

/**
 * True when `value` has the exact shape of one of our bearer tokens (`pk_`, `ds_`, `dr_`, `as_` +
 * 64 hex). Login refuses such a password uniformly, at the cost of a normal verification.
 *
 * @example
 * looksLikeToken("pk_" + "a".repeat(64)); // true
 */
export function looksLikeToken(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const kind = tokenKind(value.trim());
  return kind !== undefined && isTokenFormat(kind, value.trim());
}
