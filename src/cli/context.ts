/**
 * Shared plumbing for commands: global flags → configuration → an open service.
 */
import type { Command } from "commander";
import { resolveConfig, type CliConfig } from "./config.js";
import { createOutput, type Output } from "./output.js";
import { createService, type Service } from "../service.js";
import { UsageError } from "./errors.js";
import { mailOptions } from "./mail.js";
import { join } from "node:path";

export interface GlobalFlags {
  data?: string;
  database?: string;
  blobs?: string;
  redis?: string;
  config?: string;
  json?: boolean;
  allowPrivateWebhookTargets?: boolean;
}

export async function commandConfig(command: Command, extra: Partial<CliConfig> = {}): Promise<{ config: CliConfig; out: Output }> {
  const all = command.optsWithGlobals<GlobalFlags>();
  // Only the global flags feed the configuration; a command's own options stay its own.
  const flags = {
    data: all.data,
    database: all.database,
    blobs: all.blobs,
    redis: all.redis,
    config: all.config,
    // One switch for every command: saving, testing and the deliveries of CLI writes alike.
    allowPrivateWebhookTargets: all.allowPrivateWebhookTargets || undefined,
  };
  const config = await resolveConfig({ ...flags, ...extra });
  return { config, out: createOutput(Boolean(all.json)) };
}

/**
 * Service options from the CLI configuration, plus the master keys, which only ever come from the
 * environment (never a config file). The library itself reads no environment variable.
 */
export function serviceOptions(config: CliConfig, env: NodeJS.ProcessEnv = process.env) {
  return {
    secretKey: env.SVC_SECRET_KEY || undefined,
    oldSecretKeys: env.SVC_SECRET_KEYS_OLD?.split(",").filter((k) => k.trim()),
    dataDir: config.data,
    database: config.database ?? join(config.data, "contentsvc.db"),
    blobs: config.blobs ?? join(config.data, "blobs"),
    redis: config.redis,
    trustProxy: config.trustProxy,
    allowPrivateWebhookTargets: config.allowPrivateWebhookTargets,
    keepDeploys: config.keepDeploys,
    siteQuota: config.siteQuota,
    siteMaxFiles: config.siteMaxFiles,
    deployConcurrency: config.deployConcurrency,
    mediaQuota: config.mediaQuota,
    submissionFileQuota: config.submissionFileQuota,
    queryBudgetMs: config.queryBudgetMs,
    signInLimits: {
      accountFailures: config.loginAccountFailures,
      addressFailures: config.loginAddressFailures,
      backoffMs: config.loginBackoffMs,
      maxBackoffMs: config.loginMaxBackoffMs,
      windowMs: config.loginWindowMs,
    },
    dashboard: config.dashboard,
    versionPush: config.versionPush,
  };
}

/** Opens the service for one command, runs `fn`, closes it. */
export async function withService<T>(
  command: Command,
  fn: (svc: Service, out: Output, config: CliConfig) => Promise<T>,
  extra: Partial<CliConfig> = {},
): Promise<T> {
  const { config, out } = await commandConfig(command, extra);
  // While `svc serve --durable-webhooks` serves this database, a command's writes only land in
  // the outbox and the server delivers them; otherwise this process delivers them as before.
  // One command, a few statements: listening for pushed versions would only cost a connection.
  const logger = quietLogger();
  // The transport `svc serve` has in this configuration: commands that turn self sign-up on check it.
  const mail = mailOptions(config, logger, () => config.port);
  // No start-up pass over stored delivery JSON: a command would scan every published entry.
  const svc = await createService({ ...serviceOptions(config), ...mail, logger, webhooks: { durable: "follow" }, versionPush: false }, { deliveryBackfill: "changes" });
  try {
    return await fn(svc, out, config);
  } finally {
    await svc.close();
  }
}

/** The workspace a `-w <slug>` names, or a usage error listing what exists. */
export async function requireWorkspace(svc: Service, slug: string | undefined) {
  if (!slug) throw new UsageError("Name the workspace with -w <slug>");
  const ws = await svc.context.workspaces.bySlug(slug);
  if (!ws) {
    const known = (await svc.context.workspaces.list()).map((w) => w.slug);
    throw new UsageError(`No workspace ${slug}${known.length ? ` (known: ${known.join(", ")})` : ""}`);
  }
  return ws;
}

import { createConsola } from "consola";
/** Commands print their own results; the service's logs go to stderr only for warnings. */
export function quietLogger() {
  return createConsola({ level: 2, stdout: process.stderr, stderr: process.stderr, defaults: { tag: "contentsvc" } });
}

/** The mail flags of `svc serve` and `svc workspaces create|update`, as configuration (mail.ts). */
export function mailFlags(opts: { smtpUrl?: string; mailFrom?: string; devMail?: boolean }): Partial<CliConfig> {
  return {
    ...(opts.smtpUrl !== undefined && { smtpUrl: opts.smtpUrl }),
    ...(opts.mailFrom !== undefined && { mailFrom: opts.mailFrom }),
    ...(opts.devMail && { devMail: true }),
  };
}
