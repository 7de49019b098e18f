/**
 * Mail to end users goes through a real transport: verification e-mails arrive at a real SMTP
 * server (smtp-server on loopback) through the CLI's nodemailer transport, and the service log
 * never holds a token. A failed send is logged without the token and answered 503 with what to do;
 * without a transport, self sign-up cannot be turned on and nothing that needs mail pretends to
 * work. Real HTTP, every driver.
 */
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOptions } from "../../src/cli/mail.js";
import { createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { silentLogger, startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpServer, type TestSmtp } from "../helpers/smtp.js";

const PASSWORD = "correct horse battery staple";
const TOKEN = /ev_[0-9a-f]{64}/;

/** A consola that keeps every line it is given, all levels. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createConsola({ level: 999, reporters: [{ log: (entry) => void lines.push(entry.args.map(String).join(" ")) }] });
  return { logger, lines };
}

describe.each(drivers)("mail to end users over SMTP on %s", (driver) => {
  let smtp: TestSmtp;
  let t: TestServer;
  const log = capturingLogger();
  let owner: string;
  let n = 0;
  const signup = (email: string) =>
    t.request("/api/v1/accounts/signup", { method: "POST", json: { email, password: PASSWORD }, headers: { "x-forwarded-for": `198.51.100.${++n}` } });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const { sendMail } = mailOptions({ smtpUrl: smtp.url, mailFrom: "Demo <no-reply@demo.example>", devMail: false }, silentLogger(), () => 0);
    t = await startTestServer(driver, { logger: log.logger, sendMail, trustProxy: true });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    owner = (await createTestSession(t.svc.context, ws.id)).token;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("the owner turns self sign-up on; the verification e-mail arrives over SMTP with its token, which verifies", async () => {
    const on = await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json: { self_signup: true } });
    expect(on.status).toBe(200);
    const res = await signup("reader@corp.example");
    expect(res.status).toBe(201);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe("no-reply@demo.example");
    expect(mail.to).toEqual(["reader@corp.example"]);
    expect(mail.raw).toMatch(/^Subject: Confirm your email address for demo/m);
    const token = TOKEN.exec(mail.raw)?.[0];
    expect(token).toBeDefined();
    const verified = await t.request("/api/v1/accounts/verify", { method: "POST", json: { token } });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ email: "reader@corp.example", email_verified: true });
  });

  it("the service log holds no token and no ready-made command", () => {
    expect(log.lines.join("\n")).not.toMatch(/ev_|curl/);
  });

  it("a failing SMTP server: logged without the token, the request answered 503 saying what happened", async () => {
    await smtp.close();
    log.lines.length = 0;
    const res = await signup("late@corp.example");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Your account was created, but the verification e-mail could not be sent: sign in and ask for a new one/), mail_sent: false });
    // The account is kept: its owner signs in and asks again.
    const login = await t.request("/api/v1/accounts/login", { method: "POST", json: { email: "late@corp.example", password: PASSWORD } });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const resend = await t.request("/api/v1/accounts/verify/resend", { method: "POST", token });
    expect(resend.status).toBe(503);
    expect(await resend.json()).toEqual({ error: "The verification e-mail could not be sent; try again later", mail_sent: false });
    const errors = log.lines.filter((l) => l.startsWith("The mail transport failed"));
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(line).toMatch(/^The mail transport failed \(ESOCKET\): an email-verification message of workspace demo was not sent$/);
    expect(log.lines.join("\n")).not.toMatch(/ev_|late@corp\.example/);
  });
});

describe.each(drivers)("no mail transport on %s", (driver) => {
  let t: TestServer;
  const log = capturingLogger();
  let owner: string;

  beforeAll(async () => {
    t = await startTestServer(driver, { logger: log.logger });
    const ctx = t.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    owner = (await createTestSession(ctx, ws.id)).token;
    // Turned on while a transport was configured, and the service restarted without one.
    await ctx.workspaces.create({ slug: "old", hosts: ["old.localhost"], identity: true, selfSignup: true });
  });
  afterAll(() => t?.close());

  it("self sign-up cannot be turned on: 409 naming --smtp-url, --dev-mail and sendMail; the setting stays off", async () => {
    const res = await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json: { self_signup: true } });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string; mail_transport: boolean };
    expect(body.mail_transport).toBe(false);
    expect(body.error).toMatch(/^Self sign-up needs a mail transport/);
    for (const option of ["--smtp-url", "SVC_SMTP_URL", "--dev-mail", "createService({ sendMail })"]) expect(body.error).toContain(option);
    expect(await (await t.request("/api/dashboard/identity", { token: owner })).json()).toEqual({ enabled: true, self_signup: false });
    // Switching Identity itself still works.
    expect((await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json: { enabled: false } })).status).toBe(200);
  });

  it("a workspace with self sign-up on from before: sign-up answers 503 and creates no account; no token is logged", async () => {
    const res = await t.request("/api/v1/accounts/signup", { method: "POST", host: "old.localhost", json: { email: "who@corp.example", password: PASSWORD } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Sign-up needs e-mail, and this service has no mail transport \(configure one with --smtp-url/), mail_transport: false });
    const login = await t.request("/api/v1/accounts/login", { method: "POST", host: "old.localhost", json: { email: "who@corp.example", password: PASSWORD } });
    expect(login.status).toBe(401);
    expect(log.lines.join("\n")).not.toMatch(/ev_|who@corp\.example/);
  });
});
