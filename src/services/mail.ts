/**
 * Outgoing mail to end users, through the transport the embedder passes (`createService({ sendMail })`;
 * `svc serve` maps `--smtp-url` to one, or prints mail with `--dev-mail`). Without a transport no
 * token ever reaches a log: what needs mail (self sign-up, verification) is refused instead, with a
 * message naming the options. A failed send is logged without the message (its token is a secret,
 * its address personal data) and the request answered 503.
 *
 * @example
 * const svc = await createService({ sendMail: async (m) => transport.sendMail({ to: m.to, subject: m.subject, text: m.text }) });
 */
import type { ConsolaInstance } from "consola";
import { ServiceError } from "../core/errors.js";

/** The part of ServiceContext that mail uses (context.ts imports this file's types). */
interface MailContext {
  sendMail: MailSender | undefined;
  logger: ConsolaInstance;
}

/** One message. `text` is ready to send; `token` and `verify_path` let a sender build its own link. */
export interface MailMessage {
  kind: "email-verification";
  to: string;
  subject: string;
  text: string;
  /** The one-time token (24 h, single use) to send as `POST {verify_path} {"token": …}`. */
  token: string;
  /** Host of the workspace the account belongs to (as the request named it). */
  host: string;
  verify_path: "/api/v1/accounts/verify";
  workspace: { id: string; slug: string; name: string };
  expires_at: string;
}

/** What `sendMail` is: called once per message; a thrown error is logged (without the message) and not retried. */
export type MailSender = (message: MailMessage) => void | Promise<void>;

/** How to give the service a transport, in every message that needs one. */
export const MAIL_TRANSPORT_OPTIONS =
  "configure one with --smtp-url smtp[s]://user:pass@host:port (SVC_SMTP_URL), or in development --dev-mail (SVC_DEV_MAIL=1) to print mail, on svc serve and svc workspaces; embedders pass createService({ sendMail })";

/** 503 when the service has no mail transport: the caller did nothing wrong, the service cannot mail. */
export function requireMailTransport(ctx: Pick<MailContext, "sendMail">, what: string): void {
  if (!ctx.sendMail) throw new ServiceError(503, "unavailable", `${what} needs e-mail, and this service has no mail transport (${MAIL_TRANSPORT_OPTIONS})`, { mail_transport: false });
}

/**
 * Sends through the transport (requireMailTransport first); a failure is logged with the
 * transport's error code only and answered 503 with `failed` as the message.
 */
export async function sendMessage(ctx: MailContext, message: MailMessage, failed: string): Promise<void> {
  const send = ctx.sendMail;
  if (!send) return requireMailTransport(ctx, "Sending this message");
  try {
    await send(message);
  } catch (error) {
    const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
    const reason = [code, responseCode].filter((v) => typeof v === "string" || typeof v === "number").join(" ") || "no error code";
    ctx.logger.error(`The mail transport failed (${reason}): an ${message.kind} message of workspace ${message.workspace.slug} was not sent`);
    throw new ServiceError(503, "unavailable", failed, { mail_sent: false });
  }
}
