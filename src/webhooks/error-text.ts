/**
 * How a failure reads in logs and delivery results: the message and code, nothing from the
 * request (no URL, header value or secret), with the fix for an untrusted certificate.
 */
import { AddressNotAllowedError } from "./pinned-agent.js";

/** TLS verification failures that trusting the receiver's CA would fix (a local or private CA). */
const UNTRUSTED_CERTIFICATE = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_UNTRUSTED",
]);

/** A short, safe description of a failure: the message and code, nothing from the request. */
export function errorText(err: unknown): string {
  if (err instanceof AddressNotAllowedError) return err.message;
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    const text = code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
    if (code && UNTRUSTED_CERTIFICATE.has(code)) {
      return `${text}: the receiver's certificate is not trusted; trust its CA by starting the sending process (svc serve, or the svc command that writes) with NODE_EXTRA_CA_CERTS=<ca.pem> (embedded: the webhooks.ca option)`;
    }
    return text;
  }
  return String(err);
}
