/**
 * CLI configuration: flags > environment > config file (svc.config.ts|mjs|json) > defaults,
 * validated with zod; a bad setting fails with a message naming it and where it came from.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { UsageError } from "./errors.js";
import { DEFAULT_SIGN_IN_LIMITS } from "../core/sign-in-limits.js";
import { DEFAULT_QUERY_BUDGET_MS } from "../core/entry-query.js";

export const configSchema = z
  .object({
    data: z.string().min(1).describe("Data directory for the embedded default (SQLite, blobs, secret.key)"),
    database: z.string().min(1).optional().describe("Database URL: postgres://… or a SQLite file path"),
    blobs: z.string().min(1).optional().describe("Blob storage: a directory, memory:, or redis://…"),
    redis: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional().describe("Redis URL shared by several instances"),
    port: z.coerce.number().int().min(0).max(65535).describe("HTTP port for svc serve"),
    hostname: z.string().min(1).describe("Interface svc serve listens on"),
    allowPrivateWebhookTargets: z.boolean().describe("Allow webhook URLs on loopback/private addresses (development only)"),
    keepDeploys: z.coerce.number().int().min(1).describe("Site deploys kept per workspace, the live one included (older ones and their files are deleted)"),
    siteQuota: z.coerce.number().int().positive().describe("Bytes of distinct site files one workspace may store over its kept deploys"),
    siteMaxFiles: z.coerce.number().int().positive().describe("Most archive entries (files and directories) in one site deploy"),
    deployConcurrency: z.coerce.number().int().positive().describe("Site deploys one process unpacks at a time; one more is refused with 503 and Retry-After"),
    mediaQuota: z.coerce.number().int().positive().describe("Bytes of media assets one workspace may store"),
    submissionFileQuota: z.coerce.number().int().positive().describe("Bytes of files uploaded with form submissions one workspace may store"),
    queryBudgetMs: z.coerce
      .number()
      .int()
      .positive()
      .describe("PostgreSQL: longest an entry list read may run, in ms, before it is stopped and answers 503 (docs/content.md)"),
    trustProxy: z.boolean().describe("Read X-Forwarded-Host, and the client address from X-Forwarded-For, from a trusted reverse proxy"),
    loginAccountFailures: z.coerce.number().int().positive().describe("Failed sign-ins on one account from one client address before back-off starts"),
    loginAddressFailures: z.coerce.number().int().positive().describe("Failed sign-ins from one client address, all accounts together, before back-off starts"),
    loginBackoffMs: z.coerce.number().int().positive().describe("First sign-in back-off in ms, doubled with each further failure"),
    loginMaxBackoffMs: z.coerce.number().int().positive().describe("Longest sign-in back-off in ms"),
    loginWindowMs: z.coerce.number().int().positive().describe("Failed sign-ins are forgotten this many ms after the last one (at least loginMaxBackoffMs)"),
    dashboard: z.boolean().describe("Serve the web dashboard at /_/ on each workspace's dashboard host"),
    smtpUrl: z
      .string()
      .regex(/^smtps?:\/\/[^/]/i, "must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@smtp.example.com:465")
      .optional()
      .describe("SMTP server for mail to end users (verification e-mails): smtp[s]://user:pass@host:port"),
    mailFrom: z.string().regex(/@/, "must be an e-mail address, e.g. \"Shop <no-reply@shop.example>\"").optional().describe("Sender of mail to end users (default: the SMTP user when it is an address, else no-reply@<SMTP host>)"),
    devMail: z.boolean().describe("Development only: print mail to end users, tokens included, to the log instead of sending it"),
    versionPush: z
      .boolean()
      .describe("PostgreSQL: keep tenants and content versions in memory, invalidated by LISTEN/NOTIFY; turn off behind a pooler in transaction mode (docs/production.md)"),
  })
  .strict();

export type CliConfig = z.infer<typeof configSchema>;

export const CONFIG_DEFAULTS: CliConfig = {
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
  queryBudgetMs: DEFAULT_QUERY_BUDGET_MS,
  loginAccountFailures: DEFAULT_SIGN_IN_LIMITS.accountFailures,
  loginAddressFailures: DEFAULT_SIGN_IN_LIMITS.addressFailures,
  loginBackoffMs: DEFAULT_SIGN_IN_LIMITS.backoffMs,
  loginMaxBackoffMs: DEFAULT_SIGN_IN_LIMITS.maxBackoffMs,
  loginWindowMs: DEFAULT_SIGN_IN_LIMITS.windowMs,
  dashboard: true,
  devMail: false,
  versionPush: true,
};

/** Environment variables and the setting each one feeds. */
export const ENV_VARS: Record<string, keyof CliConfig> = {
  SVC_DATA_DIR: "data",
  SVC_DATABASE_URL: "database",
  SVC_BLOBS: "blobs",
  SVC_REDIS_URL: "redis",
  PORT: "port",
  SVC_HOSTNAME: "hostname",
  SVC_WEBHOOKS_ALLOW_PRIVATE: "allowPrivateWebhookTargets",
  SVC_TRUST_PROXY: "trustProxy",
  SVC_KEEP_DEPLOYS: "keepDeploys",
  SVC_SITE_QUOTA: "siteQuota",
  SVC_SITE_MAX_FILES: "siteMaxFiles",
  SVC_DEPLOY_CONCURRENCY: "deployConcurrency",
  SVC_MEDIA_QUOTA: "mediaQuota",
  SVC_SUBMISSION_FILE_QUOTA: "submissionFileQuota",
  SVC_QUERY_BUDGET_MS: "queryBudgetMs",
  SVC_VERSION_PUSH: "versionPush",
  SVC_SMTP_URL: "smtpUrl",
  SVC_MAIL_FROM: "mailFrom",
  SVC_DEV_MAIL: "devMail",
};

const BOOLEAN_KEYS: (keyof CliConfig)[] = ["allowPrivateWebhookTargets", "trustProxy", "versionPush", "devMail"];

const CONFIG_FILES = ["svc.config.ts", "svc.config.mjs", "svc.config.js", "svc.config.json"];

async function loadConfigFile(cwd: string, explicit?: string): Promise<{ file?: string; values: Record<string, unknown> }> {
  const file = explicit ? resolve(cwd, explicit) : CONFIG_FILES.map((f) => resolve(cwd, f)).find((f) => existsSync(f));
  if (!file) return { values: {} };
  if (!existsSync(file)) throw new UsageError(`Config file not found: ${file}`);
  let values: unknown;
  if (file.endsWith(".json")) {
    try {
      values = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new UsageError(`Config file ${file} is not valid JSON: ${(error as Error).message}`);
    }
  } else {
    const { createJiti } = await import("jiti");
    const mod = (await createJiti(import.meta.url).import(file)) as { default?: unknown };
    values = mod.default ?? mod;
  }
  if (!values || typeof values !== "object") throw new UsageError(`Config file ${file} must export an object`);
  return { file, values: values as Record<string, unknown> };
}

function fromEnv(env: NodeJS.ProcessEnv): Partial<Record<keyof CliConfig, unknown>> {
  const out: Partial<Record<keyof CliConfig, unknown>> = {};
  for (const [name, key] of Object.entries(ENV_VARS)) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    out[key] = BOOLEAN_KEYS.includes(key) ? value === "1" || value === "true" : value;
  }
  return out;
}

/** Resolves the configuration for one CLI invocation. */
export async function resolveConfig(
  flags: Partial<Record<keyof CliConfig, unknown>> & { config?: string },
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<CliConfig> {
  const { file, values } = await loadConfigFile(cwd, flags.config);
  const fromFlags = Object.fromEntries(Object.entries(flags).filter(([k, v]) => v !== undefined && k !== "config" && k !== "json"));
  const merged = { ...CONFIG_DEFAULTS, ...values, ...fromEnv(env), ...fromFlags };
  // Parsed once per command: zod's compiled fast path would cost more to build than it saves.
  const parsed = configSchema.safeParse(merged, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? "");
    const envName = Object.entries(ENV_VARS).find(([, k]) => k === key)?.[0];
    const source = key in fromFlags ? `--${key}` : envName && env[envName] ? envName : file && key in values ? file : key;
    throw new UsageError(
      issue.code === "unrecognized_keys" ? `Unknown setting ${issue.keys.join(", ")}${file ? ` in ${file}` : ""}` : `Invalid setting ${key} (${source}): ${issue.message}`,
    );
  }
  return parsed.data;
}
