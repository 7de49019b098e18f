/**
 * The one place errors become responses: `{ "error": message, ...details }` with the error's
 * status. Unexpected errors are logged and answered 500 without details (no stack, no SQL).
 */
import { HTTPError, type H3Event } from "h3";
import { isServiceError, ServiceError } from "../core/errors.js";
import { ZodError } from "zod";
import { bodyLeftUnread } from "./body.js";

export function toServiceError(error: unknown): { error: ServiceError; unexpected: boolean } {
  const cause = error instanceof HTTPError && error.cause !== undefined ? error.cause : error;
  if (isServiceError(cause)) return { error: cause, unexpected: false };
  if (cause instanceof ZodError) {
    const issue = cause.issues[0];
    const path = issue?.path.join(".");
    return {
      error: new ServiceError(400, "bad_request", path ? `${path}: ${issue?.message}` : (issue?.message ?? "Invalid input")),
      unexpected: false,
    };
  }
  if (error instanceof HTTPError && error.status < 500) {
    return { error: new ServiceError(error.status, error.status === 404 ? "not_found" : "bad_request", error.message || "Bad request"), unexpected: false };
  }
  return { error: new ServiceError(500, "internal", "Internal server error"), unexpected: true };
}

export function errorResponse(error: ServiceError, extraHeaders?: Record<string, string>): Response {
  return new Response(JSON.stringify(error.toJSON()), {
    status: error.status,
    headers: { "content-type": "application/json; charset=utf-8", ...error.headers, ...extraHeaders },
  });
}

/** `Connection: close` on a refusal that leaves the request body unread (see bodyLeftUnread). */
export function refusedBodyHeaders(event: H3Event): Record<string, string> | undefined {
  return bodyLeftUnread(event) ? { connection: "close" } : undefined;
}
