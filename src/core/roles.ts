/**
 * The two dashboard roles (spec 5.5): an owner bypasses grants and alone manages members, keys,
 * webhooks and identity settings; a member holds exactly its grants.
 */
import { z } from "zod";
import { parseWithSchema } from "./body-schema.js";

export type Role = "owner" | "member";
export const ROLES: readonly Role[] = ["owner", "member"];

/**
 * Validates a role; throws 400 naming the field.
 *
 * @example
 * parseRole("owner"); // "owner"
 */
export function parseRole(value: unknown): Role {
  return parseWithSchema(roleSchema, value, { field: "role" });
}

/** A dashboard role as sent: owner or member. */
export const roleSchema = z.enum(["owner", "member"], { error: (issue) => `role must be owner or member, got ${JSON.stringify(issue.input)}` });
