/**
 * The request log: one line per answered request, failures included (4xx/5xx, refused bodies,
 * unknown hosts). Only what is safe to keep: the path without query values (names stay, so
 * `?limit&filter[x]` still says what was asked), the principal's kind and id, never a credential,
 * a password or a body.
 */
import type { H3Event } from "h3";

/** One answered request. `principal`: `key:<id>`, `user:<id>`, `account:<id>`, or `-` when none was checked. */
export interface RequestLogLine {
  method: string;
  host: string;
  /** Path with the query's parameter names only, e.g. `/api/v1/posts?limit&filter[tag]`. */
  path: string;
  status: number;
  /** Milliseconds until the response was ready (streamed bodies may take longer to send). */
  ms: number;
  principal: string;
}

/** Receives each line; the CLI prints them, an embedder may ship them anywhere. */
export type RequestLogger = (line: RequestLogLine) => void;

const MAX_QUERY = 200;

/** The line for `event` answered with `status`, `started` (performance.now()) ago. */
export function requestLogLine(event: H3Event, status: number, started: number): RequestLogLine {
  const principal = event.context.principal;
  return {
    method: printable(event.req.method),
    host: printable(event.url.host),
    path: event.url.pathname + queryNames(event.url.search),
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    principal: principal ? `${principal.kind}:${principal.id}` : "-",
  };
}

/** `?a=1&b=&c` → `?a&b&c`: names as sent (still percent-encoded), values dropped, length capped. */
export function queryNames(search: string): string {
  if (search.length <= 1) return "";
  const names = search
    .slice(1)
    .split("&")
    .filter((p) => p !== "")
    .map((p) => p.split("=", 1)[0]!);
  const text = `?${names.join("&")}`;
  return text.length > MAX_QUERY ? `${text.slice(0, MAX_QUERY)}…` : text;
}

/** A log line is one line: control characters of client-chosen values (the Host header) become `?`. */
function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 255);
}
