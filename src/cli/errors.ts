/**
 * How the CLI fails (docs/cli.md, "Output and exit codes"): exit code 2 for a usage error (the
 * command line is wrong), 1 for any other failure; one line on stderr (commander adds a hint to
 * its own), which with --json is `{"error": …}` plus the same extra keys as the HTTP error body
 * (e.g. `field`, `grant`), so a script reads both the same way.
 */
import { CommanderError } from "commander";
import { isServiceError } from "../core/errors.js";

/** A usage error: exit code 2. `details` are extra keys of the --json error, as on HTTP errors. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

/**
 * Prints `error` to stderr and returns the exit code. Commander's own messages were already
 * printed in text mode (with the hint to run --help); with --json they were held back and are
 * printed here as JSON. `command` is the command a missing subcommand was asked of.
 */
export function reportError(error: unknown, json: boolean, command?: string): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0; // --help, --version
    // A group called without a command shows its help as an error ("(outputHelp)").
    const message = error.code === "commander.help" ? `${command ?? "svc"}: missing command (see ${command ?? "svc"} --help)` : error.message.replace(/^error: /, "").replace(/\n/g, " ");
    if (json) write(true, { error: message });
    return EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    write(json, { ...error.details, error: error.message });
    return EXIT_USAGE;
  }
  if (isServiceError(error)) {
    write(json, { ...error.details, error: error.message });
    return EXIT_FAILURE;
  }
  write(json, { error: (error as Error)?.message ?? String(error) });
  return EXIT_FAILURE;
}

function write(json: boolean, body: { error: string }): void {
  process.stderr.write(json ? `${JSON.stringify(body)}\n` : `svc: ${body.error}\n`);
}
