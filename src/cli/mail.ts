/**
 * The CLI's mail transport (docs/identity.md#mail-transport): `--smtp-url` (SVC_SMTP_URL) sends through
 * SMTP with nodemailer, from `--mail-from` (SVC_MAIL_FROM); `--dev-mail` (SVC_DEV_MAIL=1) prints
 * each message, token included, to the log instead: development only, announced with a warning.
 * Neither: no transport, and the library refuses what needs mail (nothing with a token is logged).
 */
import type { ConsolaInstance } from "consola";
import type { CliConfig } from "./config.js";
import { UsageError } from "./errors.js";
import type { MailSender } from "../services/mail.js";

/** A slow or silent SMTP server fails the request in seconds, not nodemailer's minutes. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

type MailConfig = Pick<CliConfig, "smtpUrl" | "mailFrom" | "devMail">;

/** The `sendMail` option for `config`; `port` names the listening port in printed commands. */
export function mailOptions(config: MailConfig, logger: ConsolaInstance, port: () => number): { sendMail?: MailSender } {
  if (config.smtpUrl && config.devMail) throw new UsageError("Give either --smtp-url (SVC_SMTP_URL) or --dev-mail (SVC_DEV_MAIL), not both");
  if (config.smtpUrl) return { sendMail: smtpSender(config.smtpUrl, config.mailFrom ?? defaultFrom(config.smtpUrl)) };
  if (config.devMail) return { sendMail: (m) => logger.info(devMailText(m, port())) };
  return {};
}

/** The start-up line of `svc serve` about mail: where it goes, never the credentials. */
export function announceMail(config: MailConfig, logger: ConsolaInstance): void {
  if (config.devMail) {
    logger.warn("Development mail (--dev-mail): e-mails to end users, tokens included, are printed to this log and not sent. Never in production: use --smtp-url");
  } else if (config.smtpUrl) {
    const url = new URL(config.smtpUrl);
    logger.info(`Mail to end users goes out through SMTP at ${url.host} from ${config.mailFrom ?? defaultFrom(config.smtpUrl)}`);
  }
}

/** Without a transport, names the workspaces whose sign-ups will be refused (self sign-up on from before). */
export function warnSignupsRefused(workspaces: { slug: string; selfSignup: boolean }[], logger: ConsolaInstance): void {
  const open = workspaces.filter((w) => w.selfSignup).map((w) => w.slug);
  if (open.length === 0) return;
  logger.warn(`Self sign-up is on for ${open.join(", ")} but no mail transport is configured: sign-ups there are refused (503) until one is (--smtp-url, or --dev-mail in development)`);
}

/** The SMTP URL's user when it is an address (smtp://me%40shop.example:…), else no-reply@ the SMTP host. */
export function defaultFrom(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const user = decodeURIComponent(url.username);
  return user.includes("@") ? user : `no-reply@${url.hostname}`;
}

function smtpSender(url: string, from: string): MailSender {
  // nodemailer loads on the first message: commands that never mail do not pay for it.
  let transport: Promise<{ sendMail(mail: object): Promise<unknown> }> | undefined;
  return async (m) => {
    transport ??= import("nodemailer").then((n) => n.createTransport({ url, ...SMTP_TIMEOUTS }));
    await (await transport).sendMail({ from, to: m.to, subject: m.subject, text: m.text });
  };
}

function devMailText(m: Parameters<MailSender>[0], port: number): string {
  return [
    `[development mail, not sent] to ${m.to}: ${m.subject}`,
    `  token ${m.token} (valid until ${m.expires_at})`,
    `  curl -X POST -H 'Host: ${m.host}' -H 'Content-Type: application/json' http://127.0.0.1:${port}${m.verify_path} -d '{"token":"${m.token}"}'`,
  ].join("\n");
}
