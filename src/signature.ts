/**
 * `contentsvc/signature`: verify webhook deliveries in any runtime (spec 6.4). Dependency-free.
 *
 * @example
 * import { verifyRequest } from "contentsvc/signature";
 * const v = await verifyRequest(request, process.env.WEBHOOK_SECRET!);
 */
export {
  SIGNATURE_HEADER,
  signPayload,
  verifySignature,
  verifyRequest,
  verifyNodeRequest,
  signStandardWebhook,
  standardWebhookKey,
  verifyStandardWebhook,
  STANDARD_WEBHOOK_HEADERS,
} from "./core/signature.js";
export type {
  RawBody,
  VerifyFailure,
  VerifyResult,
  VerifyNodeRequestOptions,
  NodeRequestLike,
  HeadersLike,
  VerifyStandardWebhookOptions,
} from "./core/signature.js";
