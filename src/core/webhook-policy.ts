/**
 * What a webhook may be saved with (spec 2.6, 4.3, 6.5, 6.7, 7, 8): the target URL, the target
 * address, custom headers (create and PUT semantics), events, format and debounce settings.
 * Pure: no I/O. Every refusal is a 400 `badRequest` whose message names the URL part, header name or
 * rule; a header VALUE is never echoed (it may be a credential).
 *
 * Decisions where the spec is silent:
 * - Only public unicast addresses pass (ipaddr.js range `unicast`; for IPv6 also inside 2000::/3, so
 *   IPv4-compatible `::a.b.c.d` is refused). 6to4, Teredo and NAT64 are refused whatever they embed.
 * - `allowPrivate` (DESIGN 4.1, development only) admits loopback, RFC 1918, CGNAT, ULA and local
 *   names; link-local (cloud metadata 169.254.169.254), unspecified, multicast and reserved stay refused.
 * - Header values: tab is refused like every other control character (C0, DEL, C1); characters above
 *   U+00FF are refused (not sendable as HTTP field bytes); leading/trailing spaces are refused because
 *   receivers would strip them. Nothing is ever stripped.
 * - PUT: stored names the request does not mention are kept (spec 4.3.1 "only the other names need be sent").
 */
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { badRequest } from "./errors.js";
import { booleanField, parseWithSchema } from "./body-schema.js";
import { EVENT_NAMES, WEBHOOK_FORMATS, type EventName, type WebhookFormat } from "./events.js";

/** Options of {@link validateWebhookUrl} and {@link isForbiddenAddress}. */
export interface WebhookPolicyOptions {
  /** Admit loopback/private targets (`--allow-private-webhook-targets`). HTTPS is still required. Default `false`. */
  allowPrivate?: boolean;
}

/**
 * Appended to every refusal that allowing private targets would lift, so the message names the
 * switch. Development only: production receivers are public.
 */
export const PRIVATE_TARGETS_HINT =
  "for local development, allow private targets: svc --allow-private-webhook-targets or SVC_WEBHOOKS_ALLOW_PRIVATE=1 (embedded: the allowPrivateWebhookTargets option)";

/**
 * Why a resolved address is refused, with the way to allow it when the private-targets switch
 * would; undefined when it may be connected to.
 *
 * @example
 * addressRefusal("127.0.0.1")        // "a loopback address; for local development, allow private targets: …"
 * addressRefusal("169.254.169.254")  // "a link-local address"
 */
export function addressRefusal(ip: string, options?: WebhookPolicyOptions): string | undefined {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const problem = addressProblem(bare, options?.allowPrivate ?? false);
  if (problem === null) return undefined;
  return addressProblem(bare, true) === null ? `${problem}; ${PRIVATE_TARGETS_HINT}` : problem;
}

/** Header names the dispatcher always sets itself (spec 6.5), lowercase; refused case-insensitively. */
export const FORBIDDEN_HEADER_NAMES = [
  "host",
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "x-service-signature",
] as const;

/** At most this many custom headers per webhook (spec 8). */
export const MAX_CUSTOM_HEADERS = 10;
/** At most this many characters per custom header value (spec 6.5, 8). */
export const MAX_HEADER_VALUE_LENGTH = 1024;
/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** debounce_ms upper bound: one hour (spec 2.6, 8). */
export const DEBOUNCE_MAX_MS = 3_600_000;

export type DebounceScope = "entry" | "webhook";

/**
 * The normalized URL (`URL.href`) of an acceptable webhook target, else a 400 naming the problem.
 *
 * @example
 * validateWebhookUrl("https://Hooks.Example.com/in")     // "https://hooks.example.com/in"
 * validateWebhookUrl("https://127.1/")                    // throws 400: host 127.0.0.1 is a loopback address
 * validateWebhookUrl("https://127.0.0.1:8443/", { allowPrivate: true }) // "https://127.0.0.1:8443/"
 */
export function validateWebhookUrl(input: unknown, options?: WebhookPolicyOptions): string {
  if (typeof input !== "string" || input === "") throw badRequest("Webhook url is required and must be a string", { field: "url" });
  if (input.length > MAX_WEBHOOK_URL_LENGTH) throw urlError(`is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  // The URL parser silently drops tabs/newlines and trims spaces; refuse instead of guessing.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(input)) throw urlError("must not contain whitespace or control characters");
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw urlError("is not a valid absolute URL");
  }
  if (url.protocol !== "https:") throw urlError(`scheme must be https (got ${url.protocol.slice(0, -1)}:)`);
  if (url.username !== "" || url.password !== "") throw urlError("must not contain credentials (userinfo before @)");
  const host = url.hostname;
  const allowPrivate = options?.allowPrivate ?? false;
  // A refusal the private-targets switch would lift says so.
  const hint = (problemWithSwitch: string | null) => (problemWithSwitch === null ? `; ${PRIVATE_TARGETS_HINT}` : "");
  if (host.startsWith("[")) {
    const problem = addressProblem(host.slice(1, -1), allowPrivate);
    if (problem) throw urlError(`host ${host} is ${problem}; only public addresses are allowed${hint(addressProblem(host.slice(1, -1), true))}`);
  } else if (ipaddr.IPv4.isValid(host)) {
    // WHATWG URL already rewrites 127.1, 2130706433, 0x7f.1, 0177.0.0.1 to dotted quads; kept as a guard.
    const problem = addressProblem(host, allowPrivate);
    if (problem) throw urlError(`host ${host} is ${problem}; only public addresses are allowed${hint(addressProblem(host, true))}`);
  } else {
    const problem = nameProblem(host, allowPrivate);
    if (problem) throw urlError(`host ${host} ${problem}${hint(nameProblem(host, true))}`);
  }
  return url.href;
}

/**
 * True when a resolved address may not be connected to (the same policy as {@link validateWebhookUrl}).
 * Unparseable input is forbidden. Accepts IPv4 in any inet_aton form, IPv6 with or without brackets.
 *
 * @example
 * isForbiddenAddress("10.1.2.3")            // true
 * isForbiddenAddress("::ffff:127.0.0.1")    // true
 * isForbiddenAddress("93.184.216.34")       // false
 */
export function isForbiddenAddress(ip: string, options?: WebhookPolicyOptions): boolean {
  if (typeof ip !== "string") return true;
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  return addressProblem(bare, options?.allowPrivate ?? false) !== null;
}

/**
 * A legal custom header name (RFC 9110 token, not one the dispatcher sets), returned as given.
 *
 * @example
 * validateHeaderName("X-Api-Key") // "X-Api-Key"
 * validateHeaderName("X Bad")     // throws 400
 */
export function validateHeaderName(name: unknown): string {
  if (typeof name !== "string" || name === "") throw badRequest("Header name must be a non-empty string", { field: "headers" });
  if (name.length > MAX_HEADER_NAME_LENGTH)
    throw badRequest(`Header name ${quote(name)} is longer than ${MAX_HEADER_NAME_LENGTH} characters`, { field: "headers" });
  if (!TOKEN.test(name))
    throw badRequest(`Header name ${quote(name)} is not a legal HTTP header name (RFC 9110 token)`, { field: "headers" });
  if ((FORBIDDEN_HEADER_NAMES as readonly string[]).includes(name.toLowerCase()))
    throw badRequest(`Header name ${quote(name)} is not allowed: the service sets it itself`, { field: "headers", header: name });
  return name;
}

/**
 * A storable header value: a non-empty string of at most 1024 characters without control characters.
 * The message names the header, never the value.
 *
 * @example
 * validateHeaderValue("Authorization", "Bearer abc") // "Bearer abc"
 * validateHeaderValue("X-A", "a\r\nHost: evil")      // throws 400: value of header "X-A" contains a control character
 */
export function validateHeaderValue(name: string, value: unknown): string {
  const what = `Value of header ${quote(name)}`;
  const details = { field: "headers", header: name };
  if (typeof value !== "string") throw badRequest(`${what} must be a string`, details);
  if (value === "") throw badRequest(`${what} must not be empty`, details);
  if (value.length > MAX_HEADER_VALUE_LENGTH)
    throw badRequest(`${what} is longer than ${MAX_HEADER_VALUE_LENGTH} characters`, details);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value))
    throw badRequest(`${what} contains a control character (CR, LF, NUL, tab and other controls are refused)`, details);
  if (/[^\u0020-\u00ff]/.test(value))
    throw badRequest(`${what} contains a character outside ISO-8859-1 that HTTP cannot carry`, details);
  if (value.startsWith(" ") || value.endsWith(" "))
    throw badRequest(`${what} must not start or end with a space`, details);
  return value;
}

/**
 * Custom headers of a new webhook. `undefined`/`null` -> `{}`. Empty values are refused here: an empty
 * value means "keep the stored value" only on PUT.
 *
 * @example
 * validateHeadersForCreate({ Authorization: "Bearer x" }) // { Authorization: "Bearer x" }
 */
export function validateHeadersForCreate(input: unknown): Record<string, string> {
  if (input === undefined || input === null) return {};
  const entries = headerEntries(input);
  for (const [name, value] of entries) {
    if (value === "")
      throw badRequest(`Value of header ${quote(name)} is empty; a new webhook needs a value for every header`, {
        field: "headers",
        header: name,
      });
  }
  return finalize(entries);
}

/**
 * Spec 4.3 PUT semantics for custom headers, applied to the stored headers:
 * absent (`undefined`) -> unchanged; `null` or `{}` -> cleared; a name sent with `""` keeps its stored
 * value (names match case-insensitively); names with values are set or replaced; `""` for every stored
 * name and nothing else -> cleared; `""` for a name never set -> 400 naming it; unmentioned stored names
 * are kept. The result is validated again (at most 10 headers, ...).
 *
 * @example
 * applyHeaderUpdate({ "X-A": "1", "X-B": "2" }, { "x-a": "", "X-C": "3" }) // { "X-A": "1", "X-B": "2", "X-C": "3" }
 * applyHeaderUpdate({ "X-A": "1" }, { "X-A": "" })                      // {}
 * applyHeaderUpdate({ "X-A": "1" }, { "X-Z": "" })                      // throws 400 naming X-Z
 */
export function applyHeaderUpdate(stored: Record<string, string>, input: unknown): Record<string, string> {
  if (input === undefined) return { ...stored };
  if (input === null) return {};
  const entries = headerEntries(input);
  if (entries.length === 0) return {};
  const current = new Map(Object.entries(stored).map(([n, v]) => [n.toLowerCase(), [n, v] as [string, string]]));
  const blank = entries.filter(([, v]) => v === "");
  for (const [name] of blank) {
    if (!current.has(name.toLowerCase()))
      throw badRequest(`Header ${quote(name)} was sent with a blank value but has never been set`, {
        field: "headers",
        header: name,
      });
  }
  // spec 4.3.2: a blank value for every stored name (and nothing else) clears all headers.
  if (blank.length === entries.length && blank.length === current.size) return {};
  for (const [name, value] of entries) {
    if (value !== "") current.set(name.toLowerCase(), [name, value]);
  }
  return finalize([...current.values()]);
}

/** Webhook events: a non-empty list of the six event names; duplicates are dropped. */
export const webhookEventsSchema = z
  .array(z.enum(EVENT_NAMES, { error: (issue) => `Unknown event ${quote(issue.input)}; expected one of ${EVENT_NAMES.join(", ")}` }), {
    error: "events must be an array of event names",
  })
  .min(1, { error: "events must name at least one event" })
  .transform((names) => [...new Set(names)]);

/** A webhook's payload format; absent or null means the default, `service`. */
export const webhookFormatSchema = z
  .enum(WEBHOOK_FORMATS, { error: (issue) => `Unknown format ${quote(issue.input)}; expected one of ${WEBHOOK_FORMATS.join(", ")}` })
  .nullish();

const DEBOUNCE_MS_RULE = { error: `debounce_ms must be an integer from 0 to ${DEBOUNCE_MAX_MS} (one hour)` };
const debounceMsSchema = z.int(DEBOUNCE_MS_RULE).min(0, DEBOUNCE_MS_RULE).max(DEBOUNCE_MAX_MS, DEBOUNCE_MS_RULE);
const debounceScopeSchema = z.enum(["entry", "webhook"], { error: `debounce_scope must be "entry" or "webhook"` });

/** Custom headers as sent: name to value; the names and values are checked by the header rules above. */
const headersSchema = z
  .record(z.string(), z.unknown(), { error: "headers must be an object of header name to string value" })
  .nullish()
  .meta({ description: "Header name to value; never returned. On PUT a blank value keeps the stored one, null or {} clears all (spec 4.3)" });

/** Opt-in options beyond the spec, off by default; a webhook body and the settings both take them. */
const optInFlags = {
  log_deliveries: booleanField("log_deliveries").optional().meta({ description: "Keep a delivery log (opt-in, beyond the spec)" }),
  standard_webhooks: booleanField("standard_webhooks").optional().meta({ description: "Also send the Standard Webhooks headers (opt-in, beyond the spec)" }),
};
/** On a record or the settings: present only when on. */
const optInFlagsOut = { log_deliveries: z.literal(true).optional(), standard_webhooks: z.literal(true).optional() };

/**
 * The body creating a webhook (spec 4.3): its shape. The target's address (validateWebhookUrl)
 * and the header names and values are semantic checks run after it.
 */
export const webhookCreateSchema = z.strictObject({
  url: z.string({ error: (issue) => (issue.input === undefined ? "url is required (an https:// URL)" : "Webhook url is required and must be a string") }),
  events: webhookEventsSchema,
  format: webhookFormatSchema,
  headers: headersSchema,
  active: booleanField("active").optional(),
  ...optInFlags,
});

/** The body changing a webhook: any of the create fields. */
export const webhookUpdateSchema = webhookCreateSchema.partial();

/** The body changing a webhook's settings; the secret never changes (spec 6.6). */
export const webhookSettingsSchema = z.strictObject({
  active: booleanField("active").optional(),
  debounce_ms: debounceMsSchema.nullish(),
  debounce_scope: debounceScopeSchema.nullish(),
  ...optInFlags,
});

/** The optional body of a test delivery: the sample's event name. */
export const webhookTestSchema = z.object({
  event: z.enum(EVENT_NAMES, { error: (issue) => `event must be one of the six event names, got ${JSON.stringify(issue.input)}` }).optional(),
});

/**
 * A webhook as answered (spec 4.3): never the secret or header values, only the header names.
 */
export const webhookRecordSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_NAMES)),
  active: z.boolean(),
  format: z.enum(WEBHOOK_FORMATS),
  header_names: z.array(z.string()),
  ...optInFlagsOut,
  created_at: z.string(),
});

/** A webhook's settings view: the one place its secret appears. */
export const webhookSettingsViewSchema = z.object({
  active: z.boolean(),
  debounce_ms: z.int(),
  debounce_scope: z.enum(["entry", "webhook"]),
  secret: z.string(),
  ...optInFlagsOut,
  previous_secret_until: z.string().optional().meta({ description: "End of an open rotation window, while the previous secret still signs" }),
});

/**
 * Webhook events, deduplicated in order; 400 naming the first unknown one.
 *
 * @example
 * validateEvents(["content.published", "content.published"]) // ["content.published"]
 */
export function validateEvents(input: unknown): EventName[] {
  return parseWithSchema(webhookEventsSchema, input, { field: "events" });
}

/**
 * A webhook format; undefined/null -> "service".
 *
 * @example
 * validateFormat(undefined) // "service"
 */
export function validateFormat(input: unknown): WebhookFormat {
  return parseWithSchema(webhookFormatSchema, input, { field: "format" }) ?? "service";
}

/**
 * Debounce settings (spec 2.6): ms 0..3,600,000 (default 0), scope entry | webhook (default entry).
 *
 * @example
 * validateDebounce(undefined, undefined) // { debounce_ms: 0, debounce_scope: "entry" }
 */
export function validateDebounce(ms: unknown, scope: unknown): { debounce_ms: number; debounce_scope: DebounceScope } {
  return {
    debounce_ms: parseWithSchema(debounceMsSchema, ms ?? 0, { field: "debounce_ms" }),
    debounce_scope: parseWithSchema(debounceScopeSchema, scope ?? "entry", { field: "debounce_scope" }),
  };
}

// ---------------------------------------------------------------------------------------------

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/; // RFC 9110 5.6.2 tchar
const MAX_HEADER_NAME_LENGTH = 256;
const LOCAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa"];
const PRIVATE_OK = new Set(["loopback", "private", "carrierGradeNat", "uniqueLocal"]);
const RANGE_LABEL: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT (private) address",
  private: "a private address",
  reserved: "a reserved or documentation address",
  benchmarking: "a benchmarking address",
  uniqueLocal: "a unique-local (private) address",
  deprecatedSiteLocal: "a site-local (private) address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "a NAT64 address embedding IPv4",
  "6to4": "a 6to4 address embedding IPv4",
  teredo: "a Teredo address embedding IPv4",
};
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function urlError(problem: string) {
  return badRequest(`Webhook url ${problem}`, { field: "url" });
}

/** Why an address may not be a target, or null when it may. */
function addressProblem(ip: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(ip)) return "not a valid IP address";
  const addr = ipaddr.process(ip); // unwraps ::ffff:a.b.c.d to the IPv4 it carries
  const range = addr.range();
  if (allowPrivate && PRIVATE_OK.has(range)) return null;
  if (range !== "unicast") return RANGE_LABEL[range] ?? `a special-purpose address (${range})`;
  if (addr.kind() === "ipv6" && !addr.match(GLOBAL_UNICAST_V6)) return "not a global unicast IPv6 address";
  return null;
}

/** Why a host name may not be a target, or null when it may (DNS is checked again at connect time). */
function nameProblem(host: string, allowPrivate: boolean): string | null {
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  const labels = name.split(".");
  if (labels.some((l) => l === "")) return "has an empty label";
  if (allowPrivate) return null;
  const local = LOCAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (local) return `is a local name (*.${local}); only public hosts are allowed`;
  if (labels.length < 2) return "is a single-label name; use a public fully qualified domain name";
  return null;
}

function headerEntries(input: unknown): [string, string][] {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw badRequest("headers must be an object of header name to string value", { field: "headers" });
  const entries = Object.entries(input);
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    validateHeaderName(name);
    if (typeof value !== "string") throw badRequest(`Value of header ${quote(name)} must be a string`, { field: "headers", header: name });
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw badRequest(`Header name ${quote(name)} is given more than once (names are case-insensitive)`, { field: "headers", header: name });
    seen.add(lower);
  }
  return entries as [string, string][];
}

/** Validates every pair and the count; builds with fromEntries so a name like `__proto__` stays an own key. */
function finalize(entries: [string, unknown][]): Record<string, string> {
  if (entries.length > MAX_CUSTOM_HEADERS)
    throw badRequest(`At most ${MAX_CUSTOM_HEADERS} custom headers are allowed (got ${entries.length})`, { field: "headers" });
  return Object.fromEntries(entries.map(([name, value]) => [validateHeaderName(name), validateHeaderValue(name, value)]));
}

function quote(value: unknown): string {
  const s = typeof value === "string" ? value : typeof value === "object" && value !== null ? "[object]" : String(value);
  return JSON.stringify(s.length > 64 ? `${s.slice(0, 64)}…` : s);
}
