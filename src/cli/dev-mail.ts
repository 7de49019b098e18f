/**
 * `svc serve` has no mail transport. In development — serving on a loopback interface, the default
 * — it prints each email-verification message to its log instead, so sign-up can be tried end to
 * end; on any other interface the library's default applies (a warning that nothing was sent, no
 * token in the log). Embedders pass their own `sendMail` (docs/identity.md).
 */
import { consola } from "consola";
import type { MailSender } from "../services/mail.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

/** The sendMail option of `svc serve` for `hostname`: a log printer on loopback, else none. */
export function developmentMail(hostname: string, port: () => number): { sendMail?: MailSender } {
  if (!LOOPBACK.test(hostname)) return {};
  return {
    sendMail: (m) => {
      consola.info(
        `[development mail, not sent] to ${m.to}: ${m.subject}\n  token ${m.token} (valid until ${m.expires_at})\n  curl -X POST -H 'Host: ${m.host}' -H 'Content-Type: application/json' http://127.0.0.1:${port()}${m.verify_path} -d '{"token":"${m.token}"}'`,
      );
    },
  };
}
