/**
 * The one error model of contentsvc. Every layer throws a `ServiceError`; the HTTP layer maps it
 * to `{ "error": message, ...details }` with `status` in exactly one place (http/errors.ts).
 *
 * @example
 * throw missingGrant("entries:read"); // 403 { error: "Missing grant: entries:read", grant: "entries:read" }
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "unknown_tenant"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "unavailable"
  | "internal";

/**
 * An error that is safe to show: a stable code, an HTTP status, a public message, safe details.
 *
 * @example
 * throw new ServiceError(409, "conflict", "Slug already taken", { slug });
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Extra top-level keys of the JSON error body. Never secrets, never personal data. */
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ServiceError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The JSON body sent to clients. */
  toJSON(): Record<string, unknown> {
    return { ...this.details, error: this.message };
  }
}

/**
 * True for a ServiceError, also across module copies (checks the shape, not the prototype).
 *
 * @example
 * try { await svc.context.workspaces.create({ slug, hosts }) } catch (e) { if (isServiceError(e) && e.status === 409) … }
 */
export function isServiceError(value: unknown): value is ServiceError {
  return (
    value instanceof ServiceError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "ServiceError" &&
      typeof (value as { status?: unknown }).status === "number")
  );
}

/** 400 with the reason; `details` may name the offending field. */
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new ServiceError(400, "bad_request", message, details);

/** 401, body exactly `{ "error": "Unauthorized" }` (spec 5.2.2, 7). */
export const unauthorized = () => new ServiceError(401, "unauthorized", "Unauthorized");

/** 403 naming the missing grant (spec 7: "the message names the missing grant"). */
export const missingGrant = (grant: string) =>
  new ServiceError(403, "forbidden", `Missing grant: ${grant}`, { grant });

/** 403 for other refusals (owner-only surfaces, deactivated accounts, …). */
export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new ServiceError(403, "forbidden", message, details);

/** 404 `{ "error": "Unknown tenant" }` (spec 1.2, 7). */
export const unknownTenant = () => new ServiceError(404, "unknown_tenant", "Unknown tenant");

/** 404 for a resource that does not exist (or that the caller may not know exists). */
export const notFound = (message = "Not found", details?: Record<string, unknown>) =>
  new ServiceError(404, "not_found", message, details);

/** 409: a change refused because stored data would violate it, or a uniqueness clash. */
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new ServiceError(409, "conflict", message, details);

/** 413: a body over the configured limit. */
export const payloadTooLarge = (limit: number) =>
  new ServiceError(413, "payload_too_large", `Request body is larger than the limit of ${limit} bytes`, {
    limit,
  });

/** 415: a body in a content type the route does not read. */
export const unsupportedMediaType = (message: string) =>
  new ServiceError(415, "unsupported_media_type", message);

/** 429 with Retry-After in seconds. */
export const rateLimited = (retryAfterSeconds: number, message = "Too many requests; try again later") =>
  new ServiceError(
    429,
    "rate_limited",
    message,
    { retry_after: retryAfterSeconds },
    { "retry-after": String(retryAfterSeconds) },
  );

/** 503: a dependency (database, Redis) is unreachable; the client may retry. */
export const unavailable = (message = "Service temporarily unavailable") =>
  new ServiceError(503, "unavailable", message, undefined, { "retry-after": "1" });
