/**
 * Secrets never leak into logs or errors: a full scenario with every log line captured (a consola
 * reporter as the service's logger; the dispatcher logs through its `webhooks` tag of the same
 * instance, at debug level): keys, sign-ins (good and bad), webhooks with custom header values
 * delivered and failing, form submissions, accounts. No key value, token, webhook secret, header
 * value, password or submitted value may appear in any log line or in any error response.
 */
import { inspect } from "node:util";
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { dropMail, startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, sleep, startReceiver, type Receiver } from "../webhooks/helpers.js";

describe.each(drivers)("secrets never reach logs or error bodies on %s", (driver) => {
  const lines: string[] = [];
  const logger = createConsola({
    level: 999,
    reporters: [{ log: (o) => lines.push(`${o.type} [${o.tag}] ${o.args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 8 }))).join(" ")}`) }],
  });
  let t: TestServer;
  let ok: Receiver;
  let failing: Receiver;
  const secrets: string[] = [];
  const errorBodies: string[] = [];
  let owner: string;

  const call = async (method: string, path: string, json?: unknown, token?: string, headers?: Record<string, string>) => {
    const res = await t.request(path, { method, json, token, headers });
    const text = await res.text();
    if (res.status >= 400) errorBodies.push(`${method} ${path} ${res.status} ${text}`);
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    ok = await startReceiver();
    failing = await startReceiver((_req, res) => res.writeHead(500).end("no"));
    t = await startTestServer(driver, { logger, sendMail: dropMail, allowPrivateWebhookTargets: true, trustProxy: true, webhooks: { ca: CA, retryDelaysMs: [20, 20], coalesceMs: 10 } });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true });
    owner = await dashboardToken(t.svc.context, ws.id);
    secrets.push(owner);
  });
  afterAll(async () => {
    await t?.close();
    await ok?.close();
    await failing?.close();
  });

  it("runs the scenario and finds none of its secrets anywhere", async () => {
    const password = "Secret-Passw0rd-of-the-member";
    const accountPassword = "Secret-Passw0rd-of-the-account";
    secrets.push(password, accountPassword);

    // Keys: created, used, misused as a password, revoked, used again.
    const key = (await call("POST", "/api/dashboard/keys", { name: "ci", grants: ["entries:write"] }, owner)).body;
    secrets.push(key.value);
    // Members: sign-in, failed sign-ins (wrong password, a key as the password), refresh.
    await call("POST", "/api/dashboard/members", { email: "m@example.com", password, role: "member", grants: ["entries:write"] }, owner);
    const login = (await call("POST", "/api/dashboard/login", { email: "m@example.com", password }, undefined, { "x-forwarded-for": "192.0.2.1" })).body;
    secrets.push(login.access_token, login.refresh_token);
    await call("POST", "/api/dashboard/login", { email: "m@example.com", password: `${password}x` }, undefined, { "x-forwarded-for": "192.0.2.2" });
    await call("POST", "/api/dashboard/login", { email: "m@example.com", password: key.value }, undefined, { "x-forwarded-for": "192.0.2.3" });
    await call("POST", "/api/dashboard/login", { email: "nobody@example.com", password }, key.value, { "x-forwarded-for": "192.0.2.4" });
    const refreshed = (await call("POST", "/api/dashboard/refresh", { refresh_token: login.refresh_token })).body;
    secrets.push(refreshed.access_token, refreshed.refresh_token);
    await call("POST", "/api/dashboard/refresh", { refresh_token: login.refresh_token }); // second use: 401

    // Webhooks with custom header values; one receiver answers 200, one 500 (retried, dropped).
    const headerValue = "Bearer header-secret-value-0123456789";
    secrets.push(headerValue);
    const events = ["content.created", "content.published", "form.submitted"];
    const good = (await call("POST", "/api/dashboard/webhooks", { url: ok.url(), events, headers: { Authorization: headerValue } }, owner)).body;
    const bad = (await call("POST", "/api/dashboard/webhooks", { url: failing.url(), events, headers: { "X-Token": headerValue } }, owner)).body;
    for (const w of [good, bad]) secrets.push((await call("GET", `/api/dashboard/webhooks/${w.id}/settings`, undefined, owner)).body.secret);
    await call("PUT", `/api/dashboard/webhooks/${good.id}`, { headers: { Authorization: "" } }, owner); // blank: keep
    await call("PUT", `/api/dashboard/webhooks/${good.id}`, { headers: { "X-New": "" } }, owner); // 400 (spec 7)
    await call("PUT", `/api/dashboard/webhooks/${good.id}`, { headers: { "X-Bad": "line\r\nbreak-secret" } }, owner);
    secrets.push("break-secret");

    // Content through the key: delivered to both receivers.
    await call("POST", "/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] }, owner);
    await call("POST", "/api/dashboard/collections/posts/entries", { title: "hello", _status: "published" }, key.value);
    await call("POST", "/api/dashboard/webhooks/" + bad.id + "/test", { event: "content.created" }, owner);

    // Forms: a submission's values, a refused one, a key sent to the browser endpoint.
    const visitor = { email: "visitor-secret@example.com", message: "my very private message 42" };
    secrets.push(visitor.email, visitor.message);
    await call("POST", "/api/dashboard/forms", { slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }, { name: "message", type: "text", required: true, max_length: 30 }] }, owner);
    await call("POST", "/api/v1/forms/contact/submit", visitor, undefined, { "x-forwarded-for": "192.0.2.9" });
    await call("POST", "/api/v1/forms/contact/submit", { email: "not-an-email-secret", message: "too long a private message, far too long for 30" }, undefined, { "x-forwarded-for": "192.0.2.9" });
    secrets.push("not-an-email-secret", "too long a private message");
    await call("POST", "/api/v1/forms/contact/submit", visitor, key.value, { "x-forwarded-for": "192.0.2.9" });

    // Accounts: sign-up, sign-in, a wrong password.
    await call("POST", "/api/v1/accounts/signup", { email: "a@example.com", password: accountPassword }, undefined, { "x-forwarded-for": "192.0.2.10" });
    const session = (await call("POST", "/api/v1/accounts/login", { email: "a@example.com", password: accountPassword }, undefined, { "x-forwarded-for": "192.0.2.10" })).body;
    secrets.push(session.token);
    await call("POST", "/api/v1/accounts/login", { email: "a@example.com", password: "wrong-" + accountPassword }, undefined, { "x-forwarded-for": "192.0.2.11" });

    // Revoked key, used again.
    await call("DELETE", `/api/dashboard/keys/${key.id}`, undefined, owner);
    await call("POST", "/api/dashboard/collections/posts/entries", { title: "x" }, key.value);

    await ok.waitFor(2);
    for (let i = 0; i < 100 && !lines.some((l) => l.includes("dropped after 3 attempts")); i++) await sleep(20);
    await t.svc.context.webhooks.flush();

    // The capture is live: the dispatcher's warnings went through the same logger.
    expect(lines.some((l) => l.includes("[contentsvc] ") || l.includes("[webhooks]") || l.includes("[contentsvc:webhooks]"))).toBe(true);
    expect(lines.some((l) => l.includes("dropped after 3 attempts"))).toBe(true);
    expect(errorBodies.length).toBeGreaterThan(8);
    for (const secret of secrets) {
      expect(typeof secret === "string" && secret.length >= 8, "scenario secret").toBe(true);
      for (const line of lines) expect(line.includes(secret), `log line leaks a secret: ${line.slice(0, 200)}`).toBe(false);
      for (const body of errorBodies) expect(body.includes(secret), `error response leaks a secret: ${body.slice(0, 200)}`).toBe(false);
    }
    // Hashes of keys and tokens stay out too (a log line names a key by id only).
    expect(lines.join("\n")).not.toMatch(/\b(pk|ds|dr|as)_[0-9a-f]{64}\b/);
  });
});
