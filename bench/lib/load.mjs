/**
 * The load generator: autocannon's programmatic API, in the runner (pinned to the load core).
 * Req/s counts 2xx responses only, so an error page can never pass for speed.
 */
import autocannon from "autocannon";

/**
 * `requests` (optional) is autocannon's request sequence (e.g. a
 * setupRequest that picks an entry id). Returns {rps, p50, p99, non2xx, errors, total}.
 */
let bustCounter = 0;

/**
 * One bounded autocannon run. With `bust`, every request gets a distinct, ignored query parameter
 * (`&_bench=<n>`), so a response cache keyed on the URL never hits: the uncached path.
 */
export async function load({ port, path, host = "localhost", method = "GET", headers = {}, body, requests, bust = false, connections = 50, duration = 5 }) {
  if (bust) requests = [{ setupRequest: (req) => ({ ...req, path: `${path}${path.includes("?") ? "&" : "?"}_bench=${++bustCounter}` }) }];
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method,
    headers: { host, ...headers },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
    ...(requests && { requests }),
    connections,
    duration,
    timeout: 10,
  });
  const ok = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => code >= "200" && code < "300")
    .reduce((n, [, s]) => n + Number(s.count), 0);
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([c, s]) => [c, Number(s.count)])),
  };
}

/** A short unmeasured run so JIT, statement caches and keep-alive sockets are warm. */
export const warmup = (opts, seconds = 1) => load({ ...opts, duration: seconds });
