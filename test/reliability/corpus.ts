/**
 * The bad-input corpus: for every route of `allRoutes`, requests that must each be answered 4xx
 * with a clear `error` and change nothing. Bodies are derived from one valid template per
 * body-taking route (a route missing here and not exempted fails the suite), path parameters
 * and query strings are attacked on every route automatically.
 */
import type { RouteDef } from "../../src/http/route.js";

/** One request of the corpus; `path` is filled in by the runner unless given. */
export interface BadRequest {
  name: string;
  body?: string | Uint8Array;
  contentType?: string;
  query?: string;
  headers?: Record<string, string>;
}

/**
 * A valid body per JSON route. `required`: the keys whose absence is refused (`{}` is sent only
 * when some key is required; PUT/PATCH fill the rest from defaults or the stored record).
 * `names`: keys whose values are identifiers, so SQL metacharacters, traversal, NUL and control
 * characters must be refused there (free-text values are stored as given). `extra`: how the
 * route treats an unknown key: refused (400), or ignored — the reason says where that is decided.
 * `jsonRpc`: MCP answers protocol errors as JSON-RPC (200 with `error`, 202 for notifications).
 */
export interface Template {
  body: Record<string, unknown>;
  required: string[];
  names: string[];
  extra?: "refused" | { ignored: string };
  jsonRpc?: boolean;
}

export const POSTS = {
  name: "posts",
  access: "public",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "views", type: "number" },
  ],
};
export const CONTACT = { slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }, { name: "message", type: "text", required: true }] };
export const PASSWORD = "correct horse battery staple";

const IGNORED_KEYS = "credentials and key bodies read the named fields only (src/http/routes/keys.ts, members.ts, accounts.ts)";
export const TEMPLATES: Record<string, Template> = {
  "POST /api/dashboard/collections": { body: { ...POSTS, name: "fresh" }, required: ["name"], names: ["name"] },
  "PUT /api/dashboard/collections/:name": { body: POSTS, required: [], names: ["name"] },
  "PATCH /api/dashboard/collections/:name": { body: { add: { name: "summary", type: "text" } }, required: ["add"], names: ["add"] },
  "POST /api/dashboard/collections/:name/entries": { body: { title: "hello", views: 1 }, required: ["title"], names: [] },
  "PATCH /api/dashboard/collections/:name/entries/:id": { body: { title: "changed" }, required: [], names: [] },
  "POST /api/dashboard/forms": { body: { ...CONTACT, slug: "fresh" }, required: ["slug", "name"], names: ["slug"] },
  "PUT /api/dashboard/forms/:slug": { body: CONTACT, required: ["name"], names: ["slug"] },
  "PATCH /api/dashboard/forms/:slug/submissions/:id": { body: { message: "edited" }, required: [], names: [] },
  "POST /api/v1/forms/:slug/submit": { body: { email: "a@example.com", message: "hi" }, required: ["email", "message"], names: ["email"], extra: { ignored: "spec 4.1 browsers send submit buttons and tracking fields; src/core/form-values.ts drops unknown names" } },
  "PUT /api/dashboard/identity": { body: { enabled: true }, required: ["enabled"], names: [] },
  "POST /api/dashboard/keys": { body: { name: "k2", grants: ["entries:read"] }, required: ["name"], names: ["grants"], extra: { ignored: IGNORED_KEYS } },
  "POST /api/dashboard/login": { body: { email: "nobody@example.com", password: PASSWORD }, required: ["email", "password"], names: [] },
  "POST /api/dashboard/refresh": { body: { refresh_token: `dr_${"0".repeat(64)}` }, required: ["refresh_token"], names: ["refresh_token"] },
  "POST /api/dashboard/members": { body: { email: "m2@example.com", password: PASSWORD, role: "member", grants: [] }, required: ["email", "password"], names: ["email", "role"], extra: { ignored: IGNORED_KEYS } },
  "PATCH /api/dashboard/members/:id": { body: { role: "member" }, required: [], names: ["role"], extra: { ignored: IGNORED_KEYS } },
  "POST /api/dashboard/rules": { body: { name: "r2", condition: { signed_in: true } }, required: ["name", "condition"], names: [] },
  "PUT /api/dashboard/rules/:id": { body: { name: "r1", condition: { signed_in: true } }, required: ["name", "condition"], names: [] },
  "POST /api/dashboard/site/rollback": { body: { deploy_id: "00000000-0000-4000-8000-000000000000" }, required: [], names: [] },
  "POST /api/dashboard/users": { body: { email: "u2@example.com", password: PASSWORD }, required: ["email", "password"], names: ["email"] },
  "PATCH /api/dashboard/users/:id": { body: { active: true }, required: [], names: ["email"] },
  "POST /api/dashboard/webhooks": { body: { url: "https://127.0.0.1:9/hook", events: ["content.created"] }, required: ["url"], names: ["url", "events"] },
  "PUT /api/dashboard/webhooks/:id": { body: { active: true }, required: [], names: ["url", "events"] },
  "PUT /api/dashboard/webhooks/:id/settings": { body: { debounce_ms: 0 }, required: [], names: ["debounce_scope"] },
  "POST /api/dashboard/webhooks/:id/rotate-secret": { body: { window_seconds: 3600 }, required: [], names: [], extra: "refused" },
  "POST /api/dashboard/webhooks/:id/test": { body: { event: "content.created" }, required: [], names: ["event"], extra: { ignored: "a test delivery reads only `event` and stores nothing (src/http/routes/webhooks.ts)" } },
  "POST /api/v1/accounts/signup": { body: { email: "new@example.com", password: PASSWORD }, required: ["email", "password"], names: ["email"], extra: { ignored: IGNORED_KEYS } },
  "POST /api/v1/accounts/login": { body: { email: "nobody@example.com", password: PASSWORD }, required: ["email", "password"], names: [] },
  "POST /api/v1/accounts/verify": { body: { token: `ev_${"0".repeat(64)}` }, required: ["token"], names: ["token"] },
  "POST /api/mcp": { body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, required: ["jsonrpc", "method"], names: [], jsonRpc: true },
};

/** Body-taking routes left out of the JSON corpus, and why. */
export const EXEMPT: Record<string, string> = {
  "POST /api/dashboard/logout": "ends the presenting session whatever the body; the body is only an optional refresh token (covered by test/access/dashboard.test.ts)",
  "POST /api/v1/accounts/logout": "reads no body: ends the presented account session",
  "POST /api/v1/accounts/verify/resend": "reads no body: mails a new token to the presented account session's address",
  "POST /api/dashboard/webhooks/:id/deliveries/:delivery_id/redeliver": "reads no body: sends the logged delivery named in the path again (covered by test/webhooks/deliveries-log.test.ts)",
};

/** Routes whose body is not JSON: their own bad inputs (raw bytes, tar.gz, multipart). */
export const RAW_CASES: Record<string, (limit: number) => BadRequest[]> = {
  "POST /api/dashboard/media": (limit) => [
    { name: "raw body without ?filename", body: "abc", contentType: "text/plain" },
    { name: "empty file", body: "", contentType: "text/plain", query: "filename=a.txt" },
    { name: "?filename twice", body: "abc", contentType: "text/plain", query: "filename=a.txt&filename=b.txt" },
    { name: "malformed multipart", body: "--x\r\nnot a part", contentType: "multipart/form-data; boundary=x" },
    { name: "multipart without a file field", body: "--x\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nv\r\n--x--\r\n", contentType: "multipart/form-data; boundary=x" },
    { name: "over the upload limit", body: new Uint8Array(limit + 1), contentType: "application/octet-stream", query: "filename=big.bin" },
  ],
  "POST /api/dashboard/site/deploys": (limit) => [
    { name: "empty body", body: "", contentType: "application/gzip" },
    { name: "not gzip", body: "hello world", contentType: "application/gzip" },
    { name: "truncated gzip", body: new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3]), contentType: "application/gzip" },
    { name: "JSON instead of tar.gz", body: "{}", contentType: "application/json" },
    { name: "over the upload limit", body: new Uint8Array(limit + 1), contentType: "application/gzip" },
  ],
};

const SQL_META = ["x'; DROP TABLE entries; --", "\" OR 1=1 --", "a` UNION SELECT * FROM api_keys --", "%' OR '%'='"];
const TRAVERSAL = ["../../etc/passwd", "..\\..\\windows\\win.ini", "/etc/passwd", "../", "a/../../b"];
const CONTROL = ["po\u0000sts", "a\u0007b\u001bc", "line\r\nInjected: 1", "\u202eevil"];
const LONG = "x".repeat(8 * 1024);

const json = (v: unknown) => JSON.stringify(v);
const wrongTypeOf = (v: unknown): unknown => (typeof v === "string" ? 12345 : typeof v === "number" ? "not a number" : typeof v === "boolean" ? "yes" : Array.isArray(v) ? "not-an-array" : v && typeof v === "object" ? "not-an-object" : { x: 1 });
const nest = (depth: number) => "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);

/** Every bad body for a JSON route with `template`, at a body limit of `limit` bytes. */
export function bodyCases(template: Template, limit: number): BadRequest[] {
  const t = template.body;
  const cases: BadRequest[] = [
    { name: "malformed JSON", body: "{\"a\":" },
    { name: "truncated JSON", body: json(t).slice(0, Math.max(1, Math.floor(json(t).length / 2))) },
    { name: "not JSON at all", body: "hello=world" },
    { name: "array", body: "[]" },
    { name: "number", body: "42" },
    { name: "string", body: "\"text\"" },
    { name: "trailing garbage", body: json(t) + "}" },
    { name: "deep nesting", body: nest(200) },
    { name: "deep nesting inside a valid body", body: json(t).replace(/^\{/, `{"zz_nested":${nest(100)},`) },
    { name: "__proto__ key", body: `{"__proto__":{"admin":true},${json(t).slice(1)}` },
    { name: "invalid UTF-8", body: Buffer.concat([Buffer.from(json(t).slice(0, -1) + ",\"zz\":\""), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from("\"}")]) },
    { name: "wrong content type text/plain", body: json(t), contentType: "text/plain" },
    { name: "wrong content type xml", body: "<a/>", contentType: "application/xml" },
    { name: "over the body limit", body: json({ ...t, zz_pad: "p".repeat(limit) }) },
  ];
  // `constructor` is an ordinary name (a collection may have such a field): refused as unknown
  // where unknown fields are, and never read as Object.prototype's.
  if (template.extra === undefined || template.extra === "refused") {
    cases.push({ name: "extra field", body: json({ ...t, zz_unknown_field: 1 }) }, { name: "constructor key", body: `{"constructor":{"prototype":{"admin":true}},${json(t).slice(1)}` });
  }
  if (template.required.length > 0) cases.push({ name: "missing fields ({})", body: "{}" }, { name: "null", body: "null" });
  for (const key of template.required) {
    const { [key]: _drop, ...rest } = t;
    cases.push({ name: `missing ${key}`, body: json(rest) });
  }
  for (const [key, value] of Object.entries(t)) cases.push({ name: `wrong type for ${key}`, body: json({ ...t, [key]: wrongTypeOf(value) }) });
  for (const key of template.names) {
    const arr = Array.isArray(t[key]);
    const put = (v: string) => json({ ...t, [key]: arr ? [v] : v });
    for (const v of [...SQL_META, ...TRAVERSAL, ...CONTROL, LONG]) cases.push({ name: `${key} = ${JSON.stringify(v.slice(0, 24))}`, body: put(v) });
  }
  return cases;
}

/**
 * Bad values for one path parameter (already URL-encoded). A bare `..` segment is not among them:
 * URL parsing resolves it before routing (RFC 3986 §5.2.4), so `/forms/contact/submissions/..`
 * IS `/forms/contact/`, checked against that route's access like any request for it.
 */
export const PARAM_VALUES = [
  ...[...SQL_META, ...TRAVERSAL, ...CONTROL, "__proto__", "constructor", "prototype", "x".repeat(4096), "ünïcödé", "*", "%"].map(encodeURIComponent),
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "%FF%FE%C3",
  "%00",
  "..%00",
];

/** Query strings sent to every route (duplicate parameters, SQL in sort and filters, odd numbers). */
export const QUERIES = [
  "limit=1&limit=2",
  "offset=1&offset=x",
  "sort=title&sort=-title",
  "limit=-1",
  "limit=1e9",
  "limit=99999999999999999999",
  "offset=abc",
  `sort=${encodeURIComponent("title; DROP TABLE entries")}`,
  `sort=${encodeURIComponent("-(SELECT 1)")}`,
  `filter[title]=${encodeURIComponent("' OR 1=1 --")}`,
  `filter[${encodeURIComponent("title] OR 1=1 --")}]=1`,
  "filter[__proto__]=1",
  "filter[constructor][prototype]=1",
  "filter[views]=NaN",
  "filter=1&filter[]=2",
  "status=deleted",
  "status=draft&status=published",
  `filename=${encodeURIComponent("../../etc/passwd")}`,
  "%FF%FE=%C3",
  "a=%00&b=%0d%0a",
];

/** `METHOD /path` of a route. */
export const routeKey = (r: Pick<RouteDef, "method" | "path">) => `${r.method} ${r.path}`;

/** Routes that take a body (and so must be in TEMPLATES, RAW_CASES or EXEMPT). */
export const takesBody = (r: RouteDef) => r.method === "POST" || r.method === "PUT" || r.method === "PATCH";
