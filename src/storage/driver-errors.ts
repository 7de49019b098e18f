/**
 * Driver errors → the service's error model: a lost database is a 503 (the client may retry),
 * a uniqueness clash is recognisable by repositories, anything else stays internal (500, no SQL
 * text in the response).
 */
import { conflict, isServiceError, unavailable } from "../core/errors.js";

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08003",
  "08006",
  "53300", // too_many_connections
]);

export function mapDriverError(error: unknown): unknown {
  if (isServiceError(error)) return error;
  const code = (error as { code?: unknown })?.code;
  const message = (error as { message?: unknown })?.message;
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return unavailable("Database unavailable");
  // A row that another request just deleted (or never existed) is a conflict with the current
  // state, not a server error.
  if (isForeignKeyViolation(error)) return conflict("A record this change refers to no longer exists");
  if (typeof message === "string" && /Connection terminated|not queryable|Client was closed/i.test(message)) {
    return unavailable("Database unavailable");
  }
  const errcode = (error as { errcode?: unknown })?.errcode;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || (typeof errcode === "number" && ((errcode & 0xff) === 5 || (errcode & 0xff) === 6))) return unavailable("Database busy");
  return error;
}

// SQLite extended result codes, as node:sqlite reports them in `errcode`.
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** True for a UNIQUE constraint violation on either dialect and every SQLite engine. */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return (
    code === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    errcode === SQLITE_CONSTRAINT_UNIQUE ||
    errcode === SQLITE_CONSTRAINT_PRIMARYKEY
  );
}

/** True for a FOREIGN KEY violation on either dialect and every SQLite engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY" || errcode === 787;
}
