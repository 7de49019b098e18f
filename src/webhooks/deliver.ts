/**
 * One delivery attempt (spec 6.4–6.6): build and sign the body once, POST it with the dispatcher
 * headers, succeed on 2xx, never follow redirects, abandon at the deadline, ignore the body.
 */
import { request, type Agent, type RequestOptions } from "node:https";
import { performance } from "node:perf_hooks";
import { urlToHttpOptions } from "node:url";
import { LRUCache } from "lru-cache";
import { FORBIDDEN_HEADER_NAMES } from "../core/webhook-policy.js";
import { dataRecord } from "../core/records.js";
import { errorText } from "./error-text.js";
import { checkLiteralHost } from "./pinned-agent.js";
import { SIGNATURE_HEADER } from "../core/signature.js";
import { signBody, standardWebhookHeaders } from "./sign.js";
import type { WebhookTarget } from "./types.js";

export interface AttemptOptions {
  agent: Agent;
  /** Deadline for the whole attempt: DNS, connect, TLS, write, response headers. */
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Send time of this attempt, ISO 8601 (spec 6.1). */
  timestamp: string;
  /** `webhook-id` of the delivery: the same on every attempt (sent only with standardWebhooks). */
  deliveryId: string;
  /** Where the target's URL points, checked (`destinationOf`); looked up when absent. */
  destination?: Destination;
}

/**
 * A webhook URL parsed and checked once: the request options and the `host` that deliveries are
 * grouped by, or why nothing can be sent to it (a bad URL, not https, a forbidden IP literal).
 */
export interface Destination {
  host: string;
  request?: RequestOptions;
  error?: string;
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error?: string;
  signature: string;
  durationMs: number;
  /**
   * The headers this attempt sent that the service set itself (signatures included); custom
   * header values are never in it. Absent when no request was built.
   */
  sentHeaders?: Record<string, string>;
}

/** A running attempt; `abort` ends it as a failure (used by close()). */
export interface Attempt {
  done: Promise<AttemptOutcome>;
  abort(reason: string): void;
}

/** Custom headers may not replace these (spec 6.5): the names a save refuses, the dispatcher sets them itself. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set(FORBIDDEN_HEADER_NAMES);

/** At most this much of a response body is drained for socket reuse; beyond it the socket is closed. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * Starts one signed POST of `body` (built for this attempt's timestamp) to `target`.
 *
 * @example
 * const { done } = startAttempt(target, body, { agent, timeoutMs: 10_000, allowPrivateTargets: false, timestamp, deliveryId });
 * const { ok, status, signature } = await done;
 */
export function startAttempt(target: WebhookTarget, body: Buffer, options: AttemptOptions): Attempt {
  let started = performance.now();
  const signature = signBody(target.secret, body);
  const own: Record<string, string> = { "Content-Type": "application/json", "Content-Length": String(body.length) };
  own[SIGNATURE_HEADER] = signature;
  if (target.standardWebhooks) Object.assign(own, standardWebhookHeaders(target, options.deliveryId, body, Date.parse(options.timestamp)));
  let sentHeaders: Record<string, string> | undefined;
  let settle!: (outcome: Omit<AttemptOutcome, "signature" | "durationMs" | "sentHeaders">) => void;
  let settled = false;
  const done = new Promise<AttemptOutcome>((resolve) => {
    settle = (outcome) => {
      if (settled) return;
      settled = true;
      const full = outcome as AttemptOutcome;
      full.signature = signature;
      full.durationMs = performance.now() - started;
      if (sentHeaders) full.sentHeaders = sentHeaders;
      resolve(full);
    };
  });
  const fail = (error: string) => settle({ ok: false, status: null, error });

  const destination = options.destination ?? destinationOf(target.url, options.allowPrivateTargets);
  if (destination.request === undefined) {
    fail(destination.error ?? "invalid webhook URL");
    return { done, abort: () => {} };
  }

  let req: ReturnType<typeof request>;
  try {
    // One object shape for every attempt: the client reads these fields on each request.
    const to = destination.request;
    req = request({
      protocol: to.protocol,
      hostname: to.hostname,
      port: to.port,
      path: to.path,
      auth: to.auth,
      method: "POST",
      agent: options.agent,
      headers: buildHeaders(target.headers, own),
    });
    sentHeaders = own;
  } catch (err) {
    // Only an illegal custom header name or value gets here; Node's message names the header, not its value.
    fail(errorText(err));
    return { done, abort: () => {} };
  }

  // spec 6.6: the deadline covers the whole attempt; after the outcome it also bounds the drain.
  // The clock starts when the request gets its connection (new or reused), not while it waits in
  // the pool for one: the dispatcher hands a host's next attempts over early so a freed connection
  // goes straight on to the next delivery.
  let timer: ReturnType<typeof setTimeout> | undefined;
  req.once("socket", () => {
    started = performance.now();
    timer = setTimeout(() => {
      fail(`timed out after ${options.timeoutMs} ms`);
      req.destroy();
    }, options.timeoutMs);
  });
  req.once("close", () => clearTimeout(timer));
  req.on("error", (err) => fail(errorText(err)));
  req.once("response", (res) => {
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    const why = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
    settle(ok ? { ok, status } : { ok, status, error: why });
    // spec 6.6: the body is ignored. Drain a little so the socket can be reused, never buffer it.
    let seen = 0;
    res.on("error", () => {});
    res.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) req.destroy();
    });
  });
  req.end(body);

  return {
    done,
    abort(reason) {
      fail(reason);
      req.destroy();
    },
  };
}

/**
 * The checked destination of a webhook URL. IP literals are checked here because Node never calls
 * `lookup` for them; names are checked at connect time (pinned-agent.ts).
 */
export function destinationOf(url: string, allowPrivateTargets: boolean): Destination {
  try {
    const parsed = targetUrl(url, allowPrivateTargets);
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(parsed);
    return { host: parsed.host.toLowerCase(), request: { protocol, hostname, port, path, auth } };
  } catch (err) {
    return { host: "", error: errorText(err) };
  }
}

/**
 * `destinationOf` remembered per URL: a dispatcher sends to few URLs many times, and the answer
 * depends only on the URL and `allowPrivateTargets`.
 */
export function createDestinations(allowPrivateTargets: boolean, max = 1000): (url: string) => Destination {
  const cache = new LRUCache<string, Destination>({ max });
  return (url) => {
    let found = cache.get(url);
    if (found === undefined) cache.set(url, (found = destinationOf(url, allowPrivateTargets)));
    return found;
  };
}

/** Parses and pre-checks the URL (destinationOf). */
function targetUrl(raw: string, allowPrivateTargets: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("invalid webhook URL");
  }
  if (url.protocol !== "https:") throw new Error("only https:// webhook URLs are delivered");
  checkLiteralHost(url.hostname, allowPrivateTargets);
  return url;
}

/** Custom headers first, then the service's own, which always win (spec 6.5). */
function buildHeaders(custom: Record<string, string>, own: Record<string, string>): Record<string, string> {
  let any = false;
  for (const _ in custom) {
    any = true;
    break;
  }
  if (!any) return own;
  // Header names are the owner's: a custom header named `__proto__` is a header, not a prototype.
  const headers = dataRecord<string>();
  const taken = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(custom)) {
    if (!RESERVED_HEADERS.has(name.toLowerCase()) && !taken.has(name.toLowerCase())) headers[name] = value;
  }
  return Object.assign(headers, own);
}
