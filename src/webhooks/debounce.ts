/**
 * Keyed trailing-debounce windows (spec 6.7). A window closes `delayMs` after the LAST value put in
 * it and hands over only that last value; replaced values are never seen again.
 *
 * One timer per window, and a burst does not churn timers: a touch only moves `dueAt`, and the
 * timer, when it fires early, re-arms itself for the rest. Timers are unref'd so idle windows do
 * not keep a process alive.
 */
import type { DispatcherClock } from "./types.js";

export interface DebounceWindows<V> {
  /** Puts `value` in the window `key` (opening it if needed); it closes `delayMs` after this call. */
  touch(key: string, value: V, delayMs: number): void;
  /** True when a window with this key is open. */
  has(key: string): boolean;
  /** Closes every window now without firing; returns their values (oldest window first). */
  drain(): V[];
  /** Open windows. */
  readonly size: number;
}

interface Slot<V> {
  value: V;
  dueAt: number;
  firesAt: number;
  timer: unknown;
}

/**
 * @example
 * const windows = createDebounceWindows<ServiceEvent>(clock, (event) => send(event));
 * windows.touch(`${webhookId}\0${entryId}`, event, 500);
 */
export function createDebounceWindows<V>(clock: DispatcherClock, onClose: (value: V) => void): DebounceWindows<V> {
  const slots = new Map<string, Slot<V>>();

  const fire = (key: string): void => {
    const slot = slots.get(key);
    if (!slot) return;
    const now = clock.now();
    if (now < slot.dueAt) {
      slot.firesAt = slot.dueAt;
      slot.timer = schedule(clock, () => fire(key), slot.dueAt - now);
      return;
    }
    slots.delete(key);
    onClose(slot.value);
  };

  return {
    touch(key, value, delayMs) {
      const dueAt = clock.now() + delayMs;
      const slot = slots.get(key);
      if (!slot) {
        slots.set(key, { value, dueAt, firesAt: dueAt, timer: schedule(clock, () => fire(key), delayMs) });
        return;
      }
      slot.value = value;
      slot.dueAt = dueAt;
      // Only a shorter window (the webhook's debounce_ms was lowered) needs a new timer.
      if (dueAt < slot.firesAt) {
        clock.clearTimeout(slot.timer);
        slot.firesAt = dueAt;
        slot.timer = schedule(clock, () => fire(key), delayMs);
      }
    },
    has: (key) => slots.has(key),
    drain() {
      const values: V[] = [];
      for (const slot of slots.values()) {
        clock.clearTimeout(slot.timer);
        values.push(slot.value);
      }
      slots.clear();
      return values;
    },
    get size() {
      return slots.size;
    },
  };
}

/** `clock.setTimeout`, unref'd when the handle supports it (Node timers do). */
export function schedule(clock: DispatcherClock, fn: () => void, ms: number): unknown {
  const handle = clock.setTimeout(fn, Math.max(0, ms));
  (handle as { unref?: () => void } | null)?.unref?.();
  return handle;
}
