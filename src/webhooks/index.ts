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
export type { DispatcherOptions } from "./options.js";
export type {
  AttemptRecord,
  Redelivery,
  DeliveryResult,
  Dispatcher,
  DispatcherClock,
  DispatcherLogger,
  DispatcherStats,
  LookupAll,
  WebhookSource,
  WebhookTarget,
} from "./types.js";
export type { WindowStage, WindowStore, WindowStoreContext, WindowStoreFactory } from "./window-store.js";
