/**
 * Checks of the field set of a request body, shared by every surface that takes one.
 */
import { badRequest } from "./errors.js";

/**
 * Refuses a field the operation does not take (400 naming it), so a typo such as `grant` for
 * `grants` is an error instead of a silently ignored value. `where` names the operation.
 *
 * @example
 * assertKnownFields({ grant: [] }, ["name", "grants"], "POST /api/dashboard/keys"); // 400: Unknown field "grant": …
 */
export function assertKnownFields(body: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw badRequest(`Unknown field ${JSON.stringify(key)}: ${where} takes ${allowed.join(", ")}`, { field: key });
  }
}
