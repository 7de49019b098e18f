/**
 * `svc serve`'s logs: the request log (one line per request) and everything else, as readable
 * text or, with `--log-format json`, one JSON object per line (for a log collector).
 */
import { createConsola, consola, type ConsolaInstance, type ConsolaReporter, type LogObject } from "consola";
import type { RequestLogLine, RequestLogger } from "../http/request-log.js";
import { UsageError } from "./errors.js";

export type LogFormat = "text" | "json";

export function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === "text" || value === "json") return value ?? "text";
  throw new UsageError(`--log-format ${value}: expected text or json`);
}

/**
 * One JSON object per log call: `{time, level, tag?, msg?, …fields}`; object arguments become
 * fields. Warnings and errors go to stderr, the rest to stdout, like consola's own reporters.
 */
export const jsonReporter: ConsolaReporter = {
  log(logObj: LogObject) {
    const text: string[] = [];
    const fields: Record<string, unknown> = {};
    for (const arg of logObj.args) {
      if (arg instanceof Error) text.push(arg.stack ?? arg.message);
      else if (arg && typeof arg === "object") Object.assign(fields, arg);
      else text.push(String(arg));
    }
    const line = JSON.stringify({
      time: logObj.date.toISOString(),
      level: logObj.type,
      ...(logObj.tag && { tag: logObj.tag }),
      ...(text.length > 0 && { msg: text.join(" ") }),
      ...fields,
    });
    (logObj.level <= 1 ? process.stderr : process.stdout).write(`${line}\n`);
  },
};

/**
 * The request log's text lines exactly as requestText builds them: consola's own reporters add a
 * `[log]` prefix where the environment says CI, and a log collector's parser wants one format.
 */
const requestLineReporter: ConsolaReporter = {
  log(logObj: LogObject) {
    process.stdout.write(`${logObj.args.map(String).join(" ")}\n`);
  },
};

/**
 * The loggers of `svc serve`: the service's (tagged contentsvc) and the request log, both in
 * `format`; in json the global consola (banner, shutdown) reports JSON too. `quiet`: no
 * request log. Throttling is off: consola would fold identical lines, and two requests may well
 * log the same line.
 */
export function serveLoggers(format: LogFormat, quiet: boolean): { logger: ConsolaInstance; requestLog: RequestLogger | undefined } {
  if (format === "json") consola.setReporters([jsonReporter]);
  // consola prints the time only in a terminal's right-hand column, but formats it on every line;
  // the first toLocaleTimeString initialises ICU on the way to the first request (measured:
  // docs/benchmarks.md, "Figures behind code comments").
  const formatOptions = { ...consola.options.formatOptions, date: Boolean(process.stdout.columns) };
  consola.options.formatOptions = formatOptions;
  const logger = createConsola({ defaults: { tag: "contentsvc" }, throttle: 0, formatOptions, ...(format === "json" && { reporters: [jsonReporter] }) });
  if (quiet) return { logger, requestLog: undefined };
  const requests = createConsola({ throttle: 0, reporters: [format === "json" ? jsonReporter : requestLineReporter] });
  return {
    logger,
    requestLog: format === "json" ? (line) => requests.log({ msg: "request", ...line }) : (line) => requests.log(requestText(line)),
  };
}

/** `GET demo.localhost /api/v1/posts?limit 200 3.1ms key:<id>` */
export function requestText(line: RequestLogLine): string {
  return `${line.method} ${line.host} ${line.path} ${line.status} ${line.ms}ms ${line.principal}`;
}
