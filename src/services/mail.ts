/**
 * Outgoing mail to end users, through the sender the embedder passes (`createService({ sendMail })`):
 * the library has no mail transport of its own. Without one, each message is dropped with a
 * warning (never its token or address: both are secrets or personal data).
 *
 * @example
 * const svc = await createService({ sendMail: async (m) => transport.send({ to: m.to, subject: m.subject, text: m.text }) });
 */
import type { ConsolaInstance } from "consola";

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

/** What `sendMail` is: called once per message; a thrown error is logged, not retried. */
export type MailSender = (message: MailMessage) => void | Promise<void>;

/** The default sender: says, once per message, that nothing was sent. */
export function unconfiguredMailSender(logger: ConsolaInstance): MailSender {
  return (message) => {
    logger.warn(`No mail sender configured (createService option sendMail): a ${message.kind} message was not sent`);
  };
}
