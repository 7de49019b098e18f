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
import { scenario, type Caller, type Result, type ServerScenario } from "../helpers/scenario.js";
import { dropMail } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, sleep, startReceiver, type Receiver } from "../webhooks/helpers.js";

describe.each(drivers)("secrets never reach logs or error bodies on %s", (driver) => {
  const lines: string[] = [];
  const logger = createConsola({
    level: 999,
    reporters: [{ log: (o) => lines.push(`${o.type} [${o.tag}] ${o.args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 8 }))).join(" ")}`) }],
  });
  let s: ServerScenario;
  let ok: Receiver;
  let failing: Receiver;
  const secrets: string[] = [];
  const errorBodies: string[] = [];
  let owner: Caller;
  let ownerToken: string;

  /** One step of the scenario; error bodies are kept, to be searched for secrets. */
  const step = async (sent: Promise<Result>) => {
    const res = await sent;
    if (res.status >= 400) errorBodies.push(`${res.method} ${res.path} ${res.status} ${res.text}`);
    return res;
  };

  beforeAll(async () => {
    ok = await startReceiver();
    failing = await startReceiver((_req, res) => res.writeHead(500).end("no"));
    s = await scenario(driver, { logger, sendMail: dropMail, allowPrivateWebhookTargets: true, trustProxy: true, webhooks: { ca: CA, retryDelaysMs: [20, 20], coalesceMs: 10 } });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true });
    ownerToken = await dashboardToken(s.svc.context, ws.id);
    owner = s.as(ownerToken);
    secrets.push(ownerToken);
  });
  afterAll(async () => {
    await s?.close();
    await ok?.close();
    await failing?.close();
  });

  it("runs the scenario and finds none of its secrets anywhere", async () => {
    const password = "Secret-Passw0rd-of-the-member";
    const accountPassword = "Secret-Passw0rd-of-the-account";
    secrets.push(password, accountPassword);

    // Keys: created, used, misused as a password, revoked, used again.
    const key = (await step(owner.post("/api/dashboard/keys", { name: "ci", grants: ["entries:write"] }))).body;
    secrets.push(key.value);
    // Members: sign-in, failed sign-ins (wrong password, a key as the password), refresh.
    await step(owner.post("/api/dashboard/members", { email: "m@example.com", password, role: "member", grants: ["entries:write"] }));
    const login = (await step(s.post("/api/dashboard/login", { email: "m@example.com", password }, { headers: { "x-forwarded-for": "192.0.2.1" } }))).body;
    secrets.push(login.access_token, login.refresh_token);
    await step(s.post("/api/dashboard/login", { email: "m@example.com", password: `${password}x` }, { headers: { "x-forwarded-for": "192.0.2.2" } }));
    await step(s.post("/api/dashboard/login", { email: "m@example.com", password: key.value }, { headers: { "x-forwarded-for": "192.0.2.3" } }));
    await step(s.as(key.value).post("/api/dashboard/login", { email: "nobody@example.com", password }, { headers: { "x-forwarded-for": "192.0.2.4" } }));
    const refreshed = (await step(s.post("/api/dashboard/refresh", { refresh_token: login.refresh_token }))).body;
    secrets.push(refreshed.access_token, refreshed.refresh_token);
    await step(s.post("/api/dashboard/refresh", { refresh_token: login.refresh_token })); // second use: 401

    // Webhooks with custom header values; one receiver answers 200, one 500 (retried, dropped).
    const headerValue = "Bearer header-secret-value-0123456789";
    secrets.push(headerValue);
    const events = ["content.created", "content.published", "form.submitted"];
    const good = (await step(owner.post("/api/dashboard/webhooks", { url: ok.url(), events, headers: { Authorization: headerValue } }))).body;
    const bad = (await step(owner.post("/api/dashboard/webhooks", { url: failing.url(), events, headers: { "X-Token": headerValue } }))).body;
    for (const w of [good, bad]) secrets.push((await step(owner.get(`/api/dashboard/webhooks/${w.id}/settings`))).body.secret);
    await step(owner.put(`/api/dashboard/webhooks/${good.id}`, { headers: { Authorization: "" } })); // blank: keep
    await step(owner.put(`/api/dashboard/webhooks/${good.id}`, { headers: { "X-New": "" } })); // 400 (spec 7)
    await step(owner.put(`/api/dashboard/webhooks/${good.id}`, { headers: { "X-Bad": "line\r\nbreak-secret" } }));
    secrets.push("break-secret");

    // Content through the key: delivered to both receivers.
    await step(owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] }));
    await step(s.as(key.value).post("/api/dashboard/collections/posts/entries", { title: "hello", _status: "published" }));
    await step(owner.post("/api/dashboard/webhooks/" + bad.id + "/test", { event: "content.created" }));

    // Forms: a submission's values, a refused one, a key sent to the browser endpoint.
    const visitor = { email: "visitor-secret@example.com", message: "my very private message 42" };
    secrets.push(visitor.email, visitor.message);
    await step(owner.post("/api/dashboard/forms", { slug: "contact", name: "Contact", fields: [{ name: "email", type: "email", required: true }, { name: "message", type: "text", required: true, max_length: 30 }] }));
    await step(s.post("/api/v1/forms/contact/submit", visitor, { headers: { "x-forwarded-for": "192.0.2.9" } }));
    await step(s.post("/api/v1/forms/contact/submit", { email: "not-an-email-secret", message: "too long a private message, far too long for 30" }, { headers: { "x-forwarded-for": "192.0.2.9" } }));
    secrets.push("not-an-email-secret", "too long a private message");
    await step(s.as(key.value).post("/api/v1/forms/contact/submit", visitor, { headers: { "x-forwarded-for": "192.0.2.9" } }));

    // Accounts: sign-up, sign-in, a wrong password.
    await step(s.post("/api/v1/accounts/signup", { email: "a@example.com", password: accountPassword }, { headers: { "x-forwarded-for": "192.0.2.10" } }));
    const session = (await step(s.post("/api/v1/accounts/login", { email: "a@example.com", password: accountPassword }, { headers: { "x-forwarded-for": "192.0.2.10" } }))).body;
    secrets.push(session.token);
    await step(s.post("/api/v1/accounts/login", { email: "a@example.com", password: "wrong-" + accountPassword }, { headers: { "x-forwarded-for": "192.0.2.11" } }));

    // Revoked key, used again.
    await step(owner.delete(`/api/dashboard/keys/${key.id}`));
    await step(s.as(key.value).post("/api/dashboard/collections/posts/entries", { title: "x" }));

    await ok.waitFor(2);
    for (let i = 0; i < 100 && !lines.some((l) => l.includes("dropped after 3 attempts")); i++) await sleep(20);
    await s.svc.context.webhooks.flush();

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
