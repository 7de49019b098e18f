/**
 * Background parts of the service that subscribe to the event bus (webhook delivery, …).
 * Returns a function that stops them gracefully.
 */
import type { ServiceContext } from "./service-context.js";
import type { ServiceOptions } from "./service.js";

export async function startFeatures(_ctx: ServiceContext, _options: ServiceOptions): Promise<() => Promise<void>> {
  const stops: (() => Promise<void>)[] = [];
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
