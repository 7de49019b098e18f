/**
 * Any thrown value as a `ServiceError`, without HTTP: the mapping the HTTP layer (http/errors.ts,
 * which also unwraps h3's errors) and the MCP tools share. A zod failure is 400 naming the first
 * field; anything unexpected is 500 without details (no stack, no SQL) and flagged for logging.
 *
 * @example
 * const { error, unexpected } = asServiceError(thrown);
 */
import { ZodError } from "zod";
import { isServiceError, ServiceError } from "./errors.js";
import { issueToBadRequest } from "./body-schema.js";

export function asServiceError(error: unknown): { error: ServiceError; unexpected: boolean } {
  if (isServiceError(error)) return { error, unexpected: false };
  if (error instanceof ZodError) {
    return { error: error.issues.length ? issueToBadRequest(error) : new ServiceError(400, "bad_request", "Invalid input"), unexpected: false };
  }
  return { error: new ServiceError(500, "internal", "Internal server error"), unexpected: true };
}
