/**
 * Output: with --json, exactly one JSON document on stdout and nothing else; otherwise readable
 * lines through consola (stderr for logs, stdout for results).
 */
import { consola } from "consola";

export interface Output {
  json: boolean;
  /** Prints a result: JSON, or the human rendering. */
  result(value: unknown, human?: () => string | string[]): void;
  info(message: string): void;
  /** A warning on stderr, in both modes (with --json as `{"warning": …}`): stdout stays the result alone. */
  warn(message: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, human) {
      if (json) {
        process.stdout.write(JSON.stringify(value, null, 2) + "\n");
        return;
      }
      const text = human ? human() : JSON.stringify(value, null, 2);
      process.stdout.write((Array.isArray(text) ? text.join("\n") : text) + "\n");
    },
    info(message) {
      if (!json) consola.info(message);
    },
    warn(message) {
      if (json) process.stderr.write(`${JSON.stringify({ warning: message })}\n`);
      else consola.warn(message);
    },
  };
}
