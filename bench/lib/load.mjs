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
 * `&sort=-_created_at` (the default order, so the same query and the same body) spelled a
 * different way for each `n`: each bit of `n` percent-encodes one more character. The response
 * cache is keyed on the raw query string and the entry lists refuse unknown parameters, so this
 * is how every request misses the cache while asking for exactly the default page.
 */
export function bustingSort(n) {
  const spell = (text, bits) => [...text].map((c, i) => ((bits >> i) & 1 ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}` : c)).join("");
  return `${spell("sort", n & 0xf)}=${spell("-_created_at", n >> 4)}`;
}

/**
 * One bounded autocannon run. With `bust`, every request spells the default sort differently
 * (bustingSort; 65,536 spellings, far more than the cache holds), so a response cache keyed on
 * the URL never hits: the uncached path. Paths given `bust` must not set `sort` themselves.
 */
export async function load({ port, path, host = "localhost", method = "GET", headers = {}, body, requests, bust = false, connections = 50, duration = 5 }) {
  if (bust) requests = [{ setupRequest: (req) => ({ ...req, path: `${path}${path.includes("?") ? "&" : "?"}${bustingSort(++bustCounter % 65_536)}` }) }];
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
