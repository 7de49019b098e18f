/**
 * Rules keyed on an email must not trust an address nobody proved: self sign-up is an identity
 * setting (off by default, owner-only), sign-up mails a one-time verification token through the
 * configured transport, and rules see an account's email only once it is verified. Tokens are single
 * use and expire after 24 hours (injected clock). Real HTTP, every driver; the CLI sets the
 * setting at workspace creation.
 */
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailOptions } from "../../src/cli/mail.js";
import { runCli } from "../../src/cli/index.js";
import type { MailMessage } from "../../src/services/mail.js";
import { createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";

type Json = Record<string, any>;
const PASSWORD = "correct horse battery staple";
const DAY = 24 * 60 * 60 * 1000;

describe.each(drivers)("self sign-up and verified emails on %s", (driver) => {
  let s: ServerScenario;
  let clock = Date.now();
  const mail: MailMessage[] = [];
  const tok: Record<string, string> = {};
  // Each request comes from the address of the next mail, so sign-up limits stay per step.
  const from = () => ({ "x-forwarded-for": `198.51.100.${mail.length + 1}` });
  const visitor = (token?: string, host?: string) => s.as(token, { host, headers: from });
  const signup = (email: string) => visitor().post("/api/v1/accounts/signup", { email, password: PASSWORD });
  const login = async (email: string) => {
    const res = await visitor().post("/api/v1/accounts/login", { email, password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.token as string;
  };
  const lastToken = (to: string) => mail.filter((m) => m.to === to).at(-1)!.token;

  beforeAll(async () => {
    s = await scenario(driver, { now: () => clock, sendMail: (m) => void mail.push(m), trustProxy: true });
    const ctx = s.svc.context;
    const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true });
    tok.owner = (await createTestSession(ctx, ws.id)).token;
    const rule = await visitor(tok.owner).post("/api/dashboard/rules", { name: "the ceo", condition: { account: { field: "email", eq: "ceo@corp.example" } } });
    await visitor(tok.owner).post("/api/dashboard/collections", { name: "board", access: "gated", rule: rule.body.id, fields: [{ name: "title", type: "string" }] });
    await visitor(tok.owner).post("/api/dashboard/collections/board/entries", { title: "merger plans", _status: "published" });
  });
  afterAll(() => s?.close());

  it("self sign-up is off by default: 403 with a clear message, nothing created, nothing mailed", async () => {
    const res = await signup("CEO@corp.example");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.stringMatching(/^Self sign-up is off on this workspace/), self_signup: false });
    expect((await visitor().post("/api/v1/accounts/login", { email: "ceo@corp.example", password: PASSWORD })).status).toBe(401);
    expect(mail).toHaveLength(0);
  });

  it("the owner turns it on in the identity settings; sign-up then works and mails a token", async () => {
    expect((await visitor(tok.owner).get("/api/dashboard/identity")).body).toEqual({ enabled: true, self_signup: false });
    expect((await visitor(tok.owner).put("/api/dashboard/identity", { self_signup: true })).body).toEqual({ enabled: true, self_signup: true });
    const res = await signup("CEO@corp.example");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: "ceo@corp.example", email_verified: false });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: "email-verification", to: "ceo@corp.example", host: "demo.localhost", verify_path: "/api/v1/accounts/verify" });
    expect(mail[0]!.token).toMatch(/^ev_[0-9a-f]{64}$/);
    expect(mail[0]!.text).toContain(mail[0]!.token);
  });

  it("an unverified email does not satisfy an email rule; after verification it does", async () => {
    tok.ceo = await login("ceo@corp.example");
    expect((await visitor(tok.ceo).get("/api/v1/board")).status).toBe(403);
    expect((await visitor(tok.ceo).get("/api/v1/accounts/me")).body.email_verified).toBe(false);
    const verified = await visitor().post("/api/v1/accounts/verify", { token: lastToken("ceo@corp.example") });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ email: "ceo@corp.example", email_verified: true });
    const board = await visitor(tok.ceo).get("/api/v1/board");
    expect(board.status).toBe(200);
    expect(board.body.data.map((e: Json) => e.title)).toEqual(["merger plans"]);
  });

  it("a token is single use; an unknown or malformed one is refused alike", async () => {
    for (const token of [lastToken("ceo@corp.example"), `ev_${"0".repeat(64)}`, "nonsense", 42]) {
      const res = await visitor().post("/api/v1/accounts/verify", { token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Invalid or expired verification token/);
    }
  });

  it("an expired token is refused; resend issues a new one and the old one stops working", async () => {
    expect((await signup("late@corp.example")).status).toBe(201);
    const first = lastToken("late@corp.example");
    const session = await login("late@corp.example");
    clock += DAY + 1000;
    expect((await visitor().post("/api/v1/accounts/verify", { token: first })).status).toBe(400);
    const resent = await visitor(session).post("/api/v1/accounts/verify/resend");
    expect(resent.status).toBe(202);
    const second = lastToken("late@corp.example");
    expect(second).not.toBe(first);
    await visitor(session).post("/api/v1/accounts/verify/resend");
    const third = lastToken("late@corp.example");
    expect((await visitor().post("/api/v1/accounts/verify", { token: second })).status).toBe(400);
    expect((await visitor().post("/api/v1/accounts/verify", { token: third })).status).toBe(200);
    expect((await visitor(session).post("/api/v1/accounts/verify/resend")).status).toBe(409);
    expect((await visitor().post("/api/v1/accounts/verify/resend")).status).toBe(401);
    clock = Date.now(); // the owner's dashboard session (real clock) stays valid for the next tests
  });

  it("admin-created users are unverified unless email_verified: true; a changed email is unverified again", async () => {
    const plain = await visitor(tok.owner).post("/api/dashboard/users", { email: "a@corp.example", password: PASSWORD });
    expect(plain.body.email_verified).toBe(false);
    const vouched = await visitor(tok.owner).post("/api/dashboard/users", { email: "b@corp.example", password: PASSWORD, email_verified: true });
    expect(vouched.body.email_verified).toBe(true);
    const moved = await visitor(tok.owner).patch(`/api/dashboard/users/${vouched.body.id}`, { email: "ceo2@corp.example" });
    expect(moved.body).toMatchObject({ email: "ceo2@corp.example", email_verified: false });
    const kept = await visitor(tok.owner).patch(`/api/dashboard/users/${vouched.body.id}`, { attributes: { team: "x" }, email_verified: true });
    expect(kept.body.email_verified).toBe(true);
    expect((await visitor(tok.owner).patch(`/api/dashboard/users/${plain.body.id}`, { email_verified: "yes" })).status).toBe(400);
  });

  it("a token sent to an address the account no longer has verifies nothing", async () => {
    expect((await signup("old@corp.example")).status).toBe(201);
    const token = lastToken("old@corp.example");
    const users = await visitor(tok.owner).get("/api/dashboard/users?limit=200");
    const user = users.body.data.find((u: Json) => u.email === "old@corp.example");
    await visitor(tok.owner).patch(`/api/dashboard/users/${user.id}`, { email: "new@corp.example" });
    expect((await visitor().post("/api/v1/accounts/verify", { token })).status).toBe(400);
    expect((await visitor(tok.owner).get(`/api/dashboard/users/${user.id}`)).body.email_verified).toBe(false);
  });

  it("self sign-up can be switched off again; identity settings stay owner-only", async () => {
    expect((await visitor(tok.owner).put("/api/dashboard/identity", { self_signup: false })).body).toEqual({ enabled: true, self_signup: false });
    expect((await signup("again@corp.example")).status).toBe(403);
  });
});

describe("development mail, and the CLI setting", () => {
  it("svc serve --dev-mail prints each verification message with its token and a ready-made command", async () => {
    const lines: string[] = [];
    const logger = createConsola({ level: 999, reporters: [{ log: (entry) => void lines.push(entry.args.map(String).join(" ")) }] });
    const { sendMail } = mailOptions({ devMail: true }, logger, () => 4321);
    const token = `ev_${"a".repeat(64)}`;
    await sendMail!({ kind: "email-verification", to: "x@corp.example", subject: "s", text: "t", token, host: "demo.localhost", verify_path: "/api/v1/accounts/verify", workspace: { id: "w", slug: "demo", name: "Demo" }, expires_at: "2030-01-01T00:00:00.000Z" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[development mail, not sent\] to x@corp\.example/);
    expect(lines[0]).toContain(token);
    expect(lines[0]).toContain("http://127.0.0.1:4321/api/v1/accounts/verify");
    expect(lines[0]).toContain("Host: demo.localhost");
  });

  it("without --smtp-url or --dev-mail no transport exists, on any interface; both at once is a usage error", () => {
    expect(mailOptions({ devMail: false }, createConsola(), () => 3000)).toEqual({});
    expect(() => mailOptions({ devMail: true, smtpUrl: "smtp://127.0.0.1:25" }, createConsola(), () => 3000)).toThrow(/either --smtp-url .* or --dev-mail/);
  });

  it("svc workspaces create --identity --self-signup needs a mail transport; with one it sets it; the default is off", async () => {
    const s = await scenario("sqlite");
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const base = ["--data", s.t.db.dataDir, "--database", s.t.db.url, "--json", "workspaces", "create"];
      expect(await runCli([...base, "open", "--host", "open.localhost", "--identity", "--self-signup"])).not.toBe(0);
      expect(stderr).toMatch(/Self sign-up needs a mail transport.*--smtp-url.*--dev-mail/);
      expect(await runCli([...base, "open", "--host", "open.localhost", "--identity", "--self-signup", "--dev-mail"])).toBe(0);
      expect(await runCli([...base, "closed", "--host", "closed.localhost", "--identity"])).toBe(0);
    } finally {
      out.mockRestore();
      err.mockRestore();
      process.exitCode = undefined;
    }
    try {
      expect((await s.svc.context.workspaces.bySlug("open"))?.selfSignup).toBe(true);
      expect((await s.svc.context.workspaces.bySlug("closed"))?.selfSignup).toBe(false);
      (await s.post("/api/v1/accounts/signup", { email: "x@corp.example", password: PASSWORD }, { host: "closed.localhost" })).expectStatus(403);
    } finally {
      await s.close();
    }
  });
});
