/**
 * Sign-in emails of dashboard members and end users: trimmed, lower-cased, plausibly shaped.
 * Pure. Deliverability is not checked (no mail is sent).
 *
 * @example
 * normalizeEmail("  Ada@Example.COM "); // "ada@example.com"
 */
import { z } from "zod";
import { checkedBy } from "./body-schema.js";
import { badRequest } from "./errors.js";

const MAX_EMAIL = 254; // RFC 5321 path limit
const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;

/**
 * The normalized email, or undefined when `value` is not a plausible address (for lookups that
 * must not say why they found nothing).
 *
 * @example
 * tryNormalizeEmail("nope"); // undefined
 */
export function tryNormalizeEmail(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const email = value.trim().toLowerCase();
  return email.length <= MAX_EMAIL && SHAPE.test(email) ? email : undefined;
}

/**
 * The normalized email; throws 400 naming the field otherwise.
 *
 * @example
 * normalizeEmail("owner@demo.localhost"); // "owner@demo.localhost"
 */
export function normalizeEmail(value: unknown): string {
  const email = tryNormalizeEmail(value);
  if (email === undefined) throw badRequest(INVALID_EMAIL, { field: "email" });
  return email;
}

const INVALID_EMAIL = "email must be a valid email address";
/** A sign-in email as a body sends it; stored trimmed and lower-cased. */
export const emailSchema = z.string({ error: INVALID_EMAIL }).transform(checkedBy(normalizeEmail)).meta({ format: "email" });
