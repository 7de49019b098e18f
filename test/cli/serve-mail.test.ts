/**
 * Mail through the real `svc serve` (built bundle) on 127.0.0.1, the documented production setup
 * behind a proxy: with --smtp-url the verification e-mail arrives at a real SMTP server and the
 * log holds no token; with no transport a sign-up is refused and nothing with a token is logged;
 * only --dev-mail prints mail, and it says so at start.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, SECRET_KEY, startInstance, type Instance } from "../scale/helpers.js";
import { startSmtpServer, type TestSmtp } from "../helpers/smtp.js";

const run = promisify(execFile);
const PASSWORD = "correct horse battery staple";

describe.skipIf(!builtCli)("svc serve and mail", () => {
  let dir: string;
  let smtp: TestSmtp;
  const servers: Instance[] = [];
  const serve = async (args: string[]) => {
    const server = await startInstance({ dataDir: dir, args });
    servers.push(server);
    return server;
  };
  const signup = (server: Instance, email: string) => server.request("/api/v1/accounts/signup", { method: "POST", json: { email, password: PASSWORD } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-mail-"));
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("--smtp-url: the verification e-mail arrives over SMTP; the log holds no token", async () => {
    const server = await serve(["--smtp-url", smtp.url, "--mail-from", "Demo <no-reply@demo.example>"]);
    await server.waitForOutput(new RegExp(`Mail to end users goes out through SMTP at 127\\.0\\.0\\.1:${smtp.port} from Demo <no-reply@demo\\.example>`));
    const env = { ...process.env, SVC_SECRET_KEY: SECRET_KEY, NO_COLOR: "1" };
    const cli = (...args: string[]) => run(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", ...args], { env });
    await expect(cli("workspaces", "update", "demo", "--identity", "--self-signup")).rejects.toThrow(/Self sign-up needs a mail transport/);
    const { stdout } = await cli("workspaces", "update", "demo", "--identity", "--self-signup", "--smtp-url", smtp.url);
    expect(JSON.parse(stdout)).toMatchObject({ identity: true, self_signup: true });

    const res = await signup(server, "reader@corp.example");
    expect(res.status).toBe(201);
    expect(smtp.received.map((m) => m.to)).toEqual([["reader@corp.example"]]);
    const token = /ev_[0-9a-f]{64}/.exec(smtp.received[0]!.raw)![0];
    expect((await server.request("/api/v1/accounts/verify", { method: "POST", json: { token } })).status).toBe(200);
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toMatch(/ev_|curl -X POST|development mail/i);
    await server.stop();
  });

  it("no transport: sign-up on a workspace with self sign-up on is refused (503) and no token is logged", async () => {
    const server = await serve([]);
    await server.waitForOutput(/Self sign-up is on for demo but no mail transport is configured: sign-ups there are refused \(503\) until one is \(--smtp-url, or --dev-mail in development\)/);
    const res = await signup(server, "other@corp.example");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Sign-up needs e-mail, and this service has no mail transport \(configure one with --smtp-url/);
    expect(server.output()).not.toMatch(/ev_|curl -X POST|other@corp\.example/);
    await server.stop();
  });

  it("--dev-mail warns at start and prints the message with its token", async () => {
    const server = await serve(["--dev-mail"]);
    await server.waitForOutput(/Development mail \(--dev-mail\): e-mails to end users, tokens included, are printed to this log and not sent/);
    expect((await signup(server, "dev@corp.example")).status).toBe(201);
    const printed = await server.waitForOutput(/\[development mail, not sent\] to dev@corp\.example[\s\S]*token (ev_[0-9a-f]{64})/);
    expect((await server.request("/api/v1/accounts/verify", { method: "POST", json: { token: printed[1] } })).status).toBe(200);
  });
});
