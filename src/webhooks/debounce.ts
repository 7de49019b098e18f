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
  // Windows are slots of parallel arrays (struct of arrays), not an object each: 100,000 pending
  // windows cost a Map entry, the key and the value, plus ~40 B here. A timer per window cost
  // ~200 B each and made 100,000 pending windows slow to open and to flush.
  const slots = new Map<string, number>();
  const keys: (string | undefined)[] = [];
  const values: (V | undefined)[] = [];
  /** When the window closes: `delayMs` after the last touch. */
  let dueAt = new Float64Array(64);
  /** When the heap next looks at the window (<= dueAt; a touch only moves dueAt). */
  let firesAt = new Float64Array(64);
  /** Tie-break of equal `firesAt`: first armed, first fired (as Node orders timers). */
  let order = new Float64Array(64);
  /** Position of the slot in the heap. */
  let at = new Int32Array(64);
  /** Min-heap of slots by (firesAt, order), `size` long. */
  let heap = new Int32Array(64);
  let size = 0;
  /** Slots given back by closed windows, reused before the arrays grow. */
  const free: number[] = [];
  const closing = new Set<Promise<void>>();
  let seq = 0;
  let timer: unknown;
  let timerAt = Infinity;

  const grow = <T extends Float64Array | Int32Array>(a: T): T => {
    const bigger = new (a.constructor as new (n: number) => T)(a.length * 2);
    bigger.set(a);
    return bigger;
  };
  const allocate = (key: string, value: V): number => {
    const slot = free.pop() ?? keys.length;
    if (slot === dueAt.length) {
      [dueAt, firesAt, order, at, heap] = [grow(dueAt), grow(firesAt), grow(order), grow(at), grow(heap)];
    }
    keys[slot] = key;
    values[slot] = value;
    return slot;
  };
  const release = (slot: number): void => {
    keys[slot] = undefined;
    values[slot] = undefined;
    free.push(slot);
  };

  const before = (a: number, b: number) => firesAt[a]! < firesAt[b]! || (firesAt[a] === firesAt[b] && order[a]! < order[b]!);
  const place = (slot: number, i: number) => {
    heap[i] = slot;
    at[slot] = i;
  };
  const up = (slot: number): void => {
    let i = at[slot]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(slot, heap[parent]!)) break;
      place(heap[parent]!, i);
      i = parent;
    }
    place(slot, i);
  };
  const down = (slot: number): void => {
    let i = at[slot]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, slot)) break;
      place(heap[child]!, i);
      i = child;
    }
    place(slot, i);
  };
  const push = (slot: number): void => {
    order[slot] = ++seq;
    at[slot] = size++;
    up(slot);
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap[--size]!;
    if (last !== top) {
      at[last] = 0;
      down(last);
    }
    return top;
  };

  /** Keeps the one timer armed no later than the earliest window. */
  const arm = (): void => {
    if (size === 0) return;
    const first = firesAt[heap[0]!]!;
    if (first >= timerAt) return;
    if (timer !== undefined) clock.clearTimeout(timer);
    timerAt = first;
    timer = schedule(clock, run, first - clock.now());
  };

  const run = (): void => {
    timer = undefined;
    timerAt = Infinity;
    const now = clock.now();
    try {
      while (size > 0 && firesAt[heap[0]!]! <= now) {
        const slot = pop();
        // Touched since it was armed: look again when the last touch's window runs out.
        if (now < dueAt[slot]!) {
          firesAt[slot] = dueAt[slot]!;
          push(slot);
          continue;
        }
        const key = keys[slot]!;
        const value = values[slot] as V;
        slots.delete(key);
        release(slot);
        fire(key, value);
      }
    } finally {
      // Even if a send threw, the other windows keep their timer.
      arm();
    }
  };

  const fire = (key: string, value: V): void => {
    const mine = store.take(key);
    // A store that answers at once sends at once: fake clocks in tests see the send synchronously.
    if (typeof mine === "boolean") return void (mine && onClose(value));
    const done: Promise<void> = mine
      .then((yes) => (yes ? onClose(value) : undefined))
      .catch((err: unknown) => logger.error("webhook window close failed", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  return {
    touch(key, value, delayMs) {
      const due = clock.now() + delayMs;
      const slot = slots.get(key);
      if (slot === undefined) {
        key = flatCopy(key);
        const fresh = allocate(key, value);
        dueAt[fresh] = due;
        firesAt[fresh] = due;
        slots.set(key, fresh);
        push(fresh);
      } else {
        key = keys[slot]!;
        values[slot] = value;
        dueAt[slot] = due;
        // Only a shorter window (the webhook's debounce_ms was lowered) must be looked at sooner.
        if (due < firesAt[slot]!) {
          firesAt[slot] = due;
          order[slot] = ++seq;
          up(slot);
        }
      }
      arm();
      store.put(key, value, delayMs);
    },
    has: (key) => slots.has(key),
    async drain() {
      // Oldest window first: slots in the order their windows opened (the Map's insertion order).
      const open = [...slots.values()];
      const entries = open.map((slot) => ({ key: keys[slot]!, value: values[slot] as V }));
      slots.clear();
      keys.length = 0;
      values.length = 0;
      free.length = 0;
      size = 0;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
      const mine = await Promise.all(entries.map(({ key }) => store.take(key)));
      // Closes already under way hand their values to onClose themselves.
      await Promise.all([...closing]);
      return entries.filter((_, i) => mine[i]).map(({ value }) => value);
    },
    get size() {
      return slots.size + closing.size;
    },
    close: async () => store.close?.(),
  };
}

/**
 * A flat copy of `text`, for a string a window holds for long. A string built by concatenation is
 * a tree of its pieces (a key made of a `randomUUID()` id is ~600 B of them; its text is ~100 B),
 * and JSON.stringify's result keeps its builder's slack (~140 B for a 450-character event, Node 20).
 */
export function flatCopy(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** `clock.setTimeout`, unref'd when the handle supports it (Node timers do). */
export function schedule(clock: DispatcherClock, fn: () => void, ms: number): unknown {
  const handle = clock.setTimeout(fn, Math.max(0, ms));
  (handle as { unref?: () => void } | null)?.unref?.();
  return handle;
}
