/**
 * The one place errors become responses: `{ "error": message, ...details }` with the error's
 * status. Unexpected errors are logged and answered 500 without details (no stack, no SQL); the
 * HTTP-free part of the mapping is core/error-mapping.ts, shared with the MCP tools.
 */
import { HTTPError, type H3Event } from "h3";
import { ServiceError } from "../core/errors.js";
import { asServiceError } from "../core/error-mapping.js";
import { bodyLeftUnread } from "./body.js";
import { lingerOnClose } from "./linger.js";

export function toServiceError(error: unknown): { error: ServiceError; unexpected: boolean } {
  const cause = error instanceof HTTPError && error.cause !== undefined ? error.cause : error;
  const mapped = asServiceError(cause);
  if (mapped.unexpected && error instanceof HTTPError && error.status < 500) {
    return { error: new ServiceError(error.status, error.status === 404 ? "not_found" : "bad_request", error.message || "Bad request"), unexpected: false };
  }
  return mapped;
}

export function errorResponse(error: ServiceError, extraHeaders?: Record<string, string>): Response {
  return new Response(JSON.stringify(error.toJSON()), {
    status: error.status,
    headers: { "content-type": "application/json; charset=utf-8", ...error.headers, ...extraHeaders },
  });
}

/**
 * `Connection: close` on a refusal that leaves the request body unread (see bodyLeftUnread); the
 * socket then closes lingering (linger.ts), so a client still sending the body reads the refusal.
 */
export function refusedBodyHeaders(event: H3Event): Record<string, string> | undefined {
  if (!bodyLeftUnread(event)) return undefined;
  lingerOnClose(event.runtime?.node);
  return { connection: "close" };
}
