/**
 * Keyed trailing-debounce windows (spec 6.7): the one fire path of every window store. A window
 * closes `delayMs` after the LAST value put in it and hands over only that last value; replaced
 * values are never seen again.
 *
 * One timer per store, over a min-heap of windows ordered by when each must be looked at, and a
 * burst does not churn the heap: a touch only moves `dueAt`, and a window looked at early goes back
 * in for the rest. The timer is unref'd so idle windows do not keep a process alive. Who sends a
 * window that closed is the store's answer (window-store.ts).
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
  key: string;
  value: V;
  /** When the window closes: `delayMs` after the last touch. */
  dueAt: number;
  /** When the heap next looks at this window (<= dueAt; a touch only moves dueAt). */
  firesAt: number;
  /** Tie-break of equal `firesAt`: first armed, first fired (as Node orders timers). */
  seq: number;
  /** Position in the heap. */
  at: number;
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
  // One timer for all windows, armed for the earliest one: a timer per window cost ~200 B each
  // and made 100,000 pending windows slow to open and to flush.
  const heap: Slot<V>[] = [];
  let seq = 0;
  let timer: unknown;
  let timerAt = Infinity;

  const before = (a: Slot<V>, b: Slot<V>) => a.firesAt < b.firesAt || (a.firesAt === b.firesAt && a.seq < b.seq);
  const place = (slot: Slot<V>, i: number) => {
    heap[i] = slot;
    slot.at = i;
  };
  const up = (slot: Slot<V>): void => {
    let i = slot.at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(slot, heap[parent]!)) break;
      place(heap[parent]!, i);
      i = parent;
    }
    place(slot, i);
  };
  const down = (slot: Slot<V>): void => {
    let i = slot.at;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, slot)) break;
      place(heap[child]!, i);
      i = child;
    }
    place(slot, i);
  };
  const push = (slot: Slot<V>): void => {
    slot.seq = ++seq;
    slot.at = heap.length;
    heap.push(slot);
    up(slot);
  };
  const pop = (): Slot<V> => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (last !== top) {
      last.at = 0;
      down(last);
    }
    return top;
  };

  /** Keeps the one timer armed no later than the earliest window. */
  const arm = (): void => {
    const first = heap[0];
    if (!first || first.firesAt >= timerAt) return;
    if (timer !== undefined) clock.clearTimeout(timer);
    timerAt = first.firesAt;
    timer = schedule(clock, run, first.firesAt - clock.now());
  };

  const run = (): void => {
    timer = undefined;
    timerAt = Infinity;
    const now = clock.now();
    try {
      while (heap.length > 0 && heap[0]!.firesAt <= now) {
        const slot = pop();
        // Touched since it was armed: look again when the last touch's window runs out.
        if (now < slot.dueAt) {
          slot.firesAt = slot.dueAt;
          push(slot);
          continue;
        }
        slots.delete(slot.key);
        fire(slot);
      }
    } finally {
      // Even if a send threw, the other windows keep their timer.
      arm();
    }
  };

  const fire = (slot: Slot<V>): void => {
    const mine = store.take(slot.key);
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
        const fresh: Slot<V> = { key, value, dueAt, firesAt: dueAt, seq: 0, at: 0 };
        slots.set(key, fresh);
        push(fresh);
      } else {
        slot.value = value;
        slot.dueAt = dueAt;
        // Only a shorter window (the webhook's debounce_ms was lowered) must be looked at sooner.
        if (dueAt < slot.firesAt) {
          slot.firesAt = dueAt;
          slot.seq = ++seq;
          up(slot);
        }
      }
      arm();
      store.put(key, value, delayMs);
    },
    has: (key) => slots.has(key),
    async drain() {
      const entries = [...slots.values()];
      slots.clear();
      heap.length = 0;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
      const mine = await Promise.all(entries.map((slot) => store.take(slot.key)));
      // Closes already under way hand their values to onClose themselves.
      await Promise.all([...closing]);
      return entries.filter((_, i) => mine[i]).map((slot) => slot.value);
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
