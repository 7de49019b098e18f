/**
 * `contentsvc/webhooks`: the signed webhook dispatcher (spec 6) and its node:crypto signing helpers.
 *
 * @example
 * import { createDispatcher } from "contentsvc/webhooks";
 * const dispatcher = createDispatcher({ source });
 * dispatcher.emit(event);
 */
export { createDispatcher } from "./dispatcher.js";
export { SIGNATURE_HEADER } from "../core/signature.js";
export { signBody, signDelivery, toDeliveryBody } from "./sign.js";
export { AddressNotAllowedError } from "./pinned-agent.js";
export type {
  AttemptRecord,
  Redelivery,
  DeliveryResult,
  Dispatcher,
  DispatcherClock,
  DispatcherLogger,
  DispatcherOptions,
  DispatcherStats,
  LookupAll,
  WebhookSource,
  WebhookTarget,
  WindowStage,
  WindowStore,
  WindowStoreContext,
  WindowStoreFactory,
} from "./types.js";
