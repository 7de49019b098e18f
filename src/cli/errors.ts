/** A usage error: exit code 2, one line on stderr. */
export class UsageError extends Error {
  override name = "UsageError";
}
