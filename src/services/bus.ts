/**
 * The in-process event bus. Services emit after their transaction committed (STYLE 6); webhooks
 * and tests subscribe. A failing listener is logged and never breaks the write or other listeners.
 */
import type { ServiceEvent } from "../core/events.js";

export type EventListener = (event: ServiceEvent) => void;

export interface EventBus {
  on(listener: EventListener): () => void;
  emit(event: ServiceEvent): void;
}

export function createEventBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const listeners = new Set<EventListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}

/** Emits the events of a committed write on the service's bus (STYLE 6: after commit). */
export function emitEvents(ctx: { bus: EventBus }, events: ServiceEvent[]): void {
  for (const event of events) ctx.bus.emit(event);
}
