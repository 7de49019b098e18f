/**
 * Configuration precedence (flags > environment > config file > defaults) and clear refusals,
 * plus the CLI's exit codes (0 ok, 1 failure, 2 usage).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { resolveConfig } from "../../src/cli/config.js";
import { serviceOptions } from "../../src/cli/context.js";
import { defaultFrom } from "../../src/cli/mail.js";
import { builtCli, seedDemo, startInstance } from "../scale/helpers.js";

const LOGIN_DEFAULTS = { loginAccountFailures: 10, loginAddressFailures: 100, loginBackoffMs: 1000, loginMaxBackoffMs: 900_000, loginWindowMs: 3_600_000 };

const run = promisify(execFile);

describe("configuration", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-config-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uses the defaults without anything else", async () => {
    expect(await resolveConfig({}, {}, dir)).toEqual({
      data: "./.svc",
      port: 3000,
      hostname: "127.0.0.1",
      allowPrivateWebhookTargets: false,
      trustProxy: false,
      keepDeploys: 10,
      siteQuota: 500 * 1024 * 1024,
      siteMaxFiles: 10_000,
      deployConcurrency: 2,
      mediaQuota: 1024 ** 3,
      submissionFileQuota: 1024 ** 3,
      queryBudgetMs: 2000,
      dashboard: true,
      devMail: false,
      versionPush: true,
      ...LOGIN_DEFAULTS,
    });
  });

  it("the storage bounds come from the environment and become the service's options", async () => {
    const config = await resolveConfig({}, { SVC_DEPLOY_CONCURRENCY: "3", SVC_MEDIA_QUOTA: "1000", SVC_SUBMISSION_FILE_QUOTA: "2000" }, dir);
    expect(serviceOptions(config)).toMatchObject({ deployConcurrency: 3, mediaQuota: 1000, submissionFileQuota: 2000 });
    await expect(resolveConfig({}, { SVC_MEDIA_QUOTA: "lots" }, dir)).rejects.toThrow(/mediaQuota \(SVC_MEDIA_QUOTA\)/);
  });

  it("mail settings come from SVC_SMTP_URL, SVC_MAIL_FROM and SVC_DEV_MAIL; a bad one is named, its value (a password) never shown", async () => {
    const env = { SVC_SMTP_URL: "smtps://me%40shop.example:s3cret@smtp.example.com:465", SVC_MAIL_FROM: "Shop <no-reply@shop.example>", SVC_DEV_MAIL: "1" };
    expect(await resolveConfig({}, env, dir)).toMatchObject({ smtpUrl: env.SVC_SMTP_URL, mailFrom: env.SVC_MAIL_FROM, devMail: true });
    const bad = resolveConfig({}, { SVC_SMTP_URL: "http://me:s3cret@smtp.example.com" }, dir);
    await expect(bad).rejects.toThrow(/^Invalid setting smtpUrl \(SVC_SMTP_URL\): must be an smtp:\/\/ or smtps:\/\/ URL/);
    await expect(bad).rejects.not.toThrow(/s3cret/);
    expect(defaultFrom(env.SVC_SMTP_URL)).toBe("me@shop.example");
    expect(defaultFrom("smtp://relay.example.com:25")).toBe("no-reply@relay.example.com");
  });

  it("SVC_VERSION_PUSH=0 turns the PostgreSQL version push off for the service", async () => {
    const config = await resolveConfig({}, { SVC_VERSION_PUSH: "0" }, dir);
    expect(config.versionPush).toBe(false);
    expect(serviceOptions(config).versionPush).toBe(false);
    expect((await resolveConfig({}, { SVC_VERSION_PUSH: "1" }, dir)).versionPush).toBe(true);
  });

  it("SVC_QUERY_BUDGET_MS or --query-budget-ms sets the service's query budget", async () => {
    expect(serviceOptions(await resolveConfig({}, { SVC_QUERY_BUDGET_MS: "500" }, dir)).queryBudgetMs).toBe(500);
    expect(serviceOptions(await resolveConfig({ queryBudgetMs: "250" }, { SVC_QUERY_BUDGET_MS: "500" }, dir)).queryBudgetMs).toBe(250);
    await expect(resolveConfig({}, { SVC_QUERY_BUDGET_MS: "0" }, dir)).rejects.toThrow(/queryBudgetMs \(SVC_QUERY_BUDGET_MS\)/);
  });

  it("sign-in throttling settings come from a file or flags, are checked, and become the service's signInLimits", async () => {
    writeFileSync(join(dir, "svc.config.json"), JSON.stringify({ loginAccountFailures: 5, loginWindowMs: 7_200_000 }));
    const config = await resolveConfig({ loginMaxBackoffMs: "60000" }, {}, dir);
    expect(config).toMatchObject({ loginAccountFailures: 5, loginWindowMs: 7_200_000, loginMaxBackoffMs: 60_000 });
    expect(serviceOptions(config).signInLimits).toEqual({ accountFailures: 5, addressFailures: 100, backoffMs: 1000, maxBackoffMs: 60_000, windowMs: 7_200_000 });
    await expect(resolveConfig({ loginBackoffMs: "soon" }, {}, dir)).rejects.toThrow(/loginBackoffMs \(--loginBackoffMs\)/);
    rmSync(join(dir, "svc.config.json"));
  });

  it("a config file beats the defaults, the environment beats the file, a flag beats both", async () => {
    writeFileSync(join(dir, "svc.config.json"), JSON.stringify({ port: 4000, data: "./from-file", hostname: "0.0.0.0" }));
    expect(await resolveConfig({}, {}, dir)).toMatchObject({ port: 4000, data: "./from-file", hostname: "0.0.0.0" });
    expect(await resolveConfig({}, { PORT: "5000", SVC_DATA_DIR: "./from-env" }, dir)).toMatchObject({ port: 5000, data: "./from-env", hostname: "0.0.0.0" });
    expect(await resolveConfig({ data: "./from-flag" }, { PORT: "5000", SVC_DATA_DIR: "./from-env" }, dir)).toMatchObject({ port: 5000, data: "./from-flag" });
    rmSync(join(dir, "svc.config.json"));
  });

  it("loads a TypeScript config file", async () => {
    writeFileSync(join(dir, "svc.config.ts"), "const config: { port: number } = { port: 4321 };\nexport default config;\n");
    expect(await resolveConfig({}, {}, dir)).toMatchObject({ port: 4321 });
    rmSync(join(dir, "svc.config.ts"));
  });

  it.each([
    [{}, { PORT: "nope" }, /port \(PORT\)/],
    [{}, { SVC_REDIS_URL: "http://x" }, /redis \(SVC_REDIS_URL\)/],
    [{ config: "missing.json" }, {}, /Config file not found/],
    [{}, { SVC_KEEP_DEPLOYS: "0" }, /keepDeploys \(SVC_KEEP_DEPLOYS\)/],
    [{ siteQuota: "lots" }, {}, /siteQuota \(--siteQuota\)/],
  ])("refuses %j %j naming the setting", async (flags, env, message) => {
    await expect(resolveConfig(flags as never, env, dir)).rejects.toThrow(message);
  });

  it("names an unknown setting in a config file", async () => {
    writeFileSync(join(dir, "svc.config.json"), JSON.stringify({ prot: 1 }));
    await expect(resolveConfig({}, {}, dir)).rejects.toThrow(/Unknown setting prot in .*svc\.config\.json/);
    rmSync(join(dir, "svc.config.json"));
  });
});

describe("exit codes", () => {
  const svc = (...args: string[]) =>
    run(process.execPath, ["bin/svc.mjs", ...args]).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("0 for success, 2 for a usage error, 1 for a failure, errors on one stderr line", async () => {
    const data = mkdtempSync(join(tmpdir(), "svc-exit-"));
    try {
      expect((await svc("--data", data, "workspaces", "list", "--json")).code).toBe(0);
      expect((await svc("no-such-command")).code).toBe(2);
      const missing = await svc("--data", data, "workspaces", "create", "x");
      expect(missing.code).toBe(2);
      expect((await svc("--data", data, "workspaces", "create", "a", "--host", "a.example.com")).code).toBe(0);
      const clash = await svc("--data", data, "workspaces", "create", "b", "--host", "a.example.com");
      expect(clash.code).toBe(1);
      expect(clash.stderr.trim()).toBe("svc: Host a.example.com already belongs to a workspace");
      const bad = await run(process.execPath, ["bin/svc.mjs", "--data", data, "workspaces", "list"], { env: { ...process.env, PORT: "x" } }).catch((e) => e);
      expect(bad.code).toBe(2);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe("master keys from the environment", () => {
  const svc = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, ["bin/svc.mjs", ...args], { env: { ...process.env, ...env } }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("the CLI maps SVC_SECRET_KEY and SVC_SECRET_KEYS_OLD to the service's options (rotation)", async () => {
    const data = mkdtempSync(join(tmpdir(), "svc-keys-"));
    const [first, second] = [Buffer.alloc(32, 1).toString("base64"), Buffer.alloc(32, 2).toString("base64")];
    try {
      expect((await svc({ SVC_SECRET_KEY: first }, "--data", data, "workspaces", "create", "demo", "--host", "demo.example.com")).code).toBe(0);
      const created = await svc({ SVC_SECRET_KEY: first }, "--data", data, "--json", "webhooks", "create", "-w", "demo", "--url", "https://hooks.example.com/in", "--event", "content.created");
      const { id } = JSON.parse(created.stdout) as { id: string };
      const secret = (env: Record<string, string>) => svc(env, "--data", data, "--json", "webhooks", "secret", "-w", "demo", id);
      const before = await secret({ SVC_SECRET_KEY: first });
      expect(before.code, before.stderr).toBe(0);
      const rotated = await secret({ SVC_SECRET_KEY: second, SVC_SECRET_KEYS_OLD: first });
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(JSON.parse(rotated.stdout)).toEqual(JSON.parse(before.stdout));
      const withoutOld = await secret({ SVC_SECRET_KEY: second });
      expect(withoutOld.code).toBe(1);
      expect(withoutOld.stderr).toMatch(/unknown master key/);
      expect(existsSync(join(data, "secret.key"))).toBe(false);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe.runIf(builtCli)("svc serve sign-in throttling flags", () => {
  it("--login-account-failures 2 refuses the third wrong password from one address", async () => {
    const data = mkdtempSync(join(tmpdir(), "svc-login-flags-"));
    const db = join(data, "contentsvc.db");
    await seedDemo(db, data);
    const server = await startInstance({ dataDir: data, database: db, args: ["--login-account-failures", "2", "--login-backoff-ms", "60000"] });
    try {
      const attempt = () => server.request("/api/dashboard/login", { method: "POST", json: { email: "nobody@example.com", password: "wrong password!" } });
      const statuses = [(await attempt()).status, (await attempt()).status];
      const refused = await attempt();
      expect([...statuses, refused.status]).toEqual([401, 401, 429]);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(50);
    } finally {
      await server.stop();
      rmSync(data, { recursive: true, force: true });
    }
  });
});
