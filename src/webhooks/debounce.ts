/**
 * Keyed trailing-debounce windows (spec 6.7): the one fire path of every window store. A window
 * closes `delayMs` after the LAST value put in it and hands over only that last value; replaced
 * values are never seen again.
 *
 * One timer per window, and a burst does not churn timers: a touch only moves `dueAt`, and the
 * timer, when it fires early, re-arms itself for the rest. Timers are unref'd so idle windows do
 * not keep a process alive. Who sends a window that closed is the store's answer (window-store.ts).
 */
import type { DispatcherClock, DispatcherLogger } from "./types.js";
import type { WindowStore } from "./types.js";

export interface DebounceWindows<V> {
  /** Puts `value` in the window `key` (opening it if needed); it closes `delayMs` after this call. */
  touch(key: string, value: V, delayMs: number): void;
  /** True when a window with this key is open on this instance. */
  has(key: string): boolean;
  /**
   * Closes every window now without `onClose`; returns the values this instance must send (oldest
   * window first), once closes already under way have handed theirs to `onClose`.
   */
  drain(): Promise<V[]>;
  /** Windows open or closing on this instance. */
  readonly size: number;
  /** Releases the store; called once after the last drain. */
  close(): Promise<void>;
}

interface Slot<V> {
  value: V;
  dueAt: number;
  firesAt: number;
  timer: unknown;
}

/**
 * @example
 * const windows = createDebounceWindows<ServiceEvent>(store, clock, (event) => send(event), logger);
 * windows.touch(`${webhookId}\0${entryId}`, event, 500);
 */
export function createDebounceWindows<V>(
  store: WindowStore<V>,
  clock: DispatcherClock,
  onClose: (value: V) => void,
  logger: DispatcherLogger,
): DebounceWindows<V> {
  const slots = new Map<string, Slot<V>>();
  const closing = new Set<Promise<void>>();

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
    const mine = store.take(key);
    // A store that answers at once sends at once: fake clocks in tests see the send synchronously.
    if (typeof mine === "boolean") return void (mine && onClose(slot.value));
    const done: Promise<void> = mine
      .then((yes) => (yes ? onClose(slot.value) : undefined))
      .catch((err: unknown) => logger.error("webhook window close failed", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  return {
    touch(key, value, delayMs) {
      const dueAt = clock.now() + delayMs;
      const slot = slots.get(key);
      if (!slot) {
        slots.set(key, { value, dueAt, firesAt: dueAt, timer: schedule(clock, () => fire(key), delayMs) });
      } else {
        slot.value = value;
        slot.dueAt = dueAt;
        // Only a shorter window (the webhook's debounce_ms was lowered) needs a new timer.
        if (dueAt < slot.firesAt) {
          clock.clearTimeout(slot.timer);
          slot.firesAt = dueAt;
          slot.timer = schedule(clock, () => fire(key), delayMs);
        }
      }
      store.put(key, value, delayMs);
    },
    has: (key) => slots.has(key),
    async drain() {
      const entries = [...slots];
      slots.clear();
      for (const [, slot] of entries) clock.clearTimeout(slot.timer);
      const mine = await Promise.all(entries.map(([key]) => store.take(key)));
      // Closes already under way hand their values to onClose themselves.
      await Promise.all([...closing]);
      return entries.filter((_, i) => mine[i]).map(([, slot]) => slot.value);
    },
    get size() {
      return slots.size + closing.size;
    },
    close: async () => store.close?.(),
  };
}

/** `clock.setTimeout`, unref'd when the handle supports it (Node timers do). */
export function schedule(clock: DispatcherClock, fn: () => void, ms: number): unknown {
  const handle = clock.setTimeout(fn, Math.max(0, ms));
  (handle as { unref?: () => void } | null)?.unref?.();
  return handle;
}
