/**
 * Bearer credentials (spec 2.1, 5.2; DESIGN §4.2): formats and generation of API keys and other
 * tokens, the stored hash, `Authorization` header parsing and constant-time comparison.
 * Pure apart from randomness (node:crypto).
 *
 * @example
 * const value = generateApiKey(); // shown once
 * const stored = hashToken(value); // what the database keeps (unique index)
 */
import { createHash, hash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { parseWithSchema } from "./body-schema.js";
import { badRequest } from "./errors.js";
import { grantsSchema } from "./grants.js";
import { keyCollectionsSchema, publishedOnlySchema } from "./key-scope.js";

/**
 * An API key value: `pk_` and 64 lowercase hex characters (spec 2.1, 8).
 *
 * @example
 * API_KEY_PATTERN.test("pk_" + "0".repeat(64)); // true
 */
export const API_KEY_PATTERN = /^pk_[0-9a-f]{64}$/;

/**
 * Bearer tokens are told apart by prefix (DESIGN §4.2).
 *
 * @example
 * TOKEN_PREFIXES.account_session; // "as_"
 */
export const TOKEN_PREFIXES = {
  api_key: "pk_",
  dashboard_access: "ds_",
  dashboard_refresh: "dr_",
  account_session: "as_",
} as const;

/** The kind of a bearer token. @example const k: TokenKind = "api_key"; */
export type TokenKind = keyof typeof TOKEN_PREFIXES;

const KINDS = Object.keys(TOKEN_PREFIXES) as TokenKind[];
const HEX64 = /^[0-9a-f]{64}$/;
/** Longer headers are junk; refusing them early avoids hashing megabytes per request. */
const MAX_BEARER_LENGTH = 4096;
// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; b64token has no spaces or commas.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * True for a well-formed API key value (format only; says nothing about whether it exists).
 *
 * @example
 * isApiKeyFormat(generateApiKey()); // true
 * isApiKeyFormat("pk_123"); // false
 */
export function isApiKeyFormat(s: unknown): s is string {
  return typeof s === "string" && API_KEY_PATTERN.test(s);
}

/**
 * A fresh API key value: `pk_` + 64 lowercase hex from 32 random bytes.
 *
 * @example
 * generateApiKey(); // "pk_3f9c…" (67 characters)
 */
export function generateApiKey(): string {
  return generateToken("api_key");
}

/**
 * The kind a token claims by its prefix, or `undefined`. The rest is checked by `isTokenFormat`
 * and by the lookup itself.
 *
 * @example
 * tokenKind("ds_abc"); // "dashboard_access"
 * tokenKind("xx_abc"); // undefined
 */
export function tokenKind(token: string): TokenKind | undefined {
  if (typeof token !== "string") return undefined;
  return KINDS.find((k) => token.startsWith(TOKEN_PREFIXES[k]));
}

/**
 * A fresh token of `kind`: its prefix + 64 lowercase hex from 32 random bytes.
 *
 * @example
 * generateToken("account_session"); // "as_…"
 */
export function generateToken(kind: TokenKind): string {
  return TOKEN_PREFIXES[kind] + randomBytes(32).toString("hex");
}

/**
 * True when `token` is exactly `kind`'s prefix + 64 lowercase hex.
 *
 * @example
 * isTokenFormat("dashboard_refresh", generateToken("dashboard_refresh")); // true
 * isTokenFormat("api_key", generateToken("account_session")); // false
 */
export function isTokenFormat(kind: TokenKind, token: unknown): token is string {
  const prefix = TOKEN_PREFIXES[kind];
  return typeof token === "string" && token.startsWith(prefix) && HEX64.test(token.slice(prefix.length));
}

/**
 * SHA-256 (lowercase hex) of a token: the only form in which keys and tokens are stored.
 *
 * @example
 * hashToken("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export function hashToken(value: string): string {
  // One-shot (strings hash as UTF-8): faster than a Hash object, and it runs per request (measured:
  // docs/benchmarks.md, "Figures behind code comments").
  return hash("sha256", value, "hex");
}

/**
 * The token of an `Authorization: Bearer <token>` header value, or `undefined` when the header is
 * missing or malformed (other scheme, no token, two tokens, spaces or commas inside, junk).
 * The scheme is case-insensitive; surrounding whitespace and several spaces after the scheme
 * are allowed (RFC 9110 OWS, RFC 6750 `1*SP`).
 *
 * @example
 * parseBearer("Bearer pk_abc"); // "pk_abc"
 * parseBearer("Basic dXNlcjpwdw=="); // undefined
 */
export function parseBearer(header: string | null | undefined): string | undefined {
  if (typeof header !== "string" || header.length > MAX_BEARER_LENGTH) return undefined;
  return BEARER.exec(header.trim())?.[1];
}

/**
 * Constant-time string equality: compares SHA-256 digests, so neither content nor length leaks
 * through timing.
 *
 * @example
 * safeEqual(presented, expected); // true only when identical
 */
export function safeEqual(a: string, b: string): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  const da = createHash("sha256").update(a, "utf8").digest();
  const db = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

/** Longest API key name, characters (after trimming). */
export const MAX_KEY_NAME = 200;

/**
 * An API key's name (where the key is used), trimmed; 400 naming the field when it is missing,
 * blank or longer than MAX_KEY_NAME.
 *
 * @example
 * parseKeyName("  build server "); // "build server"
 */
export function parseKeyName(name: unknown): string {
  return parseWithSchema(keyNameSchema, name, { field: "name" });
}

const NAME_REQUIRED = { error: "name is required (where the key is used)" };
/** An API key's name as sent; stored trimmed. */
export const keyNameSchema = z
  .string(NAME_REQUIRED)
  .trim()
  .min(1, NAME_REQUIRED)
  .max(MAX_KEY_NAME, { error: `name must be at most ${MAX_KEY_NAME} characters` });

/**
 * The body creating an API key: `{name, grants, collections?, published_only?}`; the last two
 * narrow the key (core/key-scope.ts).
 */
export const apiKeyBodySchema = z.strictObject({
  name: keyNameSchema,
  grants: grantsSchema.optional(),
  collections: keyCollectionsSchema.optional(),
  published_only: publishedOnlySchema.optional(),
});
