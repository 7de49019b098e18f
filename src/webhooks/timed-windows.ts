/**
 * Windows held in this process with local timers (spec 6.7): the engine of the memory and Redis
 * window stores. A window closes `delayMs` after the LAST value put in it and hands over only that
 * last value; replaced values are never seen again. Values never leave the process; whether this
 * instance sends a window that closed is its `WindowClaims`' answer (always yes in memory, the
 * owner token on Redis).
 *
 * One timer per store, over a min-heap of windows ordered by when each must be looked at, and a
 * burst does not churn the heap: a put only moves `dueAt`, and a window looked at early goes back
 * in for the rest. The timer is unref'd so idle windows do not keep a process alive.
 */
import { errorText } from "./error-text.js";
import { schedule } from "./schedule.js";
import type { WindowStore, WindowStoreContext } from "./window-store.js";

/**
 * Who owns each window among the instances sharing a store. Each instance keeps the value it put
 * and arms its own timer; when the timer runs out, `take` says whether this instance sends.
 */
export interface WindowClaims {
  /** This instance put a value in window `key` (opening or restarting it); it closes `delayMs` from now. Never throws. */
  put(key: string, delayMs: number): void;
  /**
   * This instance's timer of window `key` ran out (or it is draining): true when it owns the
   * window and sends its last value, false when a later put elsewhere owns it. Forgets the window
   * either way. Never rejects; a store that cannot tell answers true (a possible duplicate, never a loss).
   */
  take(key: string): boolean | Promise<boolean>;
  /** Releases connections. */
  close?(): Promise<void>;
}

/**
 * @example
 * const windows = createTimedWindows<ServiceEvent>({ put() {}, take: () => true }, { stage: "coalesce", clock, logger, codec, onClose: send });
 * windows.put(`${workspaceId}\0${entryId}`, event, 500);
 */
export function createTimedWindows<V>(claims: WindowClaims, context: WindowStoreContext<V>): WindowStore<V> {
  const { clock, logger, onClose } = context;
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

  const closeFailed = (err: unknown) => logger.error("webhook window close failed", { error: errorText(err) });

  /** Hands a closed window on; what onClose throws or rejects is logged, never left to crash the process from a timer. */
  const handOn = (value: V): void => {
    try {
      void Promise.resolve(onClose(value, clock.now())).catch(closeFailed);
    } catch (err) {
      closeFailed(err);
    }
  };

  const fire = (key: string, value: V): void => {
    const mine = claims.take(key);
    // Claims that answer at once send at once: fake clocks in tests see the send synchronously.
    if (typeof mine === "boolean") return void (mine && handOn(value));
    const done: Promise<void> = mine
      .then((yes) => (yes ? onClose(value, clock.now()) : undefined))
      .catch(closeFailed)
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  return {
    put(key, value, delayMs, at) {
      const due = (at?.from ?? clock.now()) + delayMs;
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
      claims.put(key, due - clock.now());
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
      const mine = await Promise.all(entries.map(({ key }) => claims.take(key)));
      // Closes already under way hand their values to onClose themselves.
      await Promise.all([...closing]);
      return entries.filter((_, i) => mine[i]).map(({ value }) => value);
    },
    get size() {
      return slots.size + closing.size;
    },
    close: async () => claims.close?.(),
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
