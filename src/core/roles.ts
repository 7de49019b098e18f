/**
 * The two dashboard roles (spec 5.5): an owner bypasses grants and alone manages members, keys,
 * webhooks and identity settings; a member holds exactly its grants.
 */
import { badRequest } from "./errors.js";

export type Role = "owner" | "member";
export const ROLES: readonly Role[] = ["owner", "member"];

/**
 * Validates a role; throws 400 naming the field.
 *
 * @example
 * parseRole("owner"); // "owner"
 */
export function parseRole(value: unknown): Role {
  if (value === "owner" || value === "member") return value;
  throw badRequest(`role must be owner or member, got ${JSON.stringify(value)}`, { field: "role" });
}
