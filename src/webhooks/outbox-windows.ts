/**
 * The persistent window store: windows and deliveries are rows of the SQL outbox
 * (storage/webhook-outbox.ts; docs/webhooks.md "Durable delivery"), so nothing acknowledged is
 * lost to a crash, a SIGKILL or a restart, and every instance on the database shares the work.
 *
 * Decisions:
 * - The same WindowStore as memory and Redis, and the same pipeline (dispatcher.ts): a put is an
 *   upsert of the window's row (`due_at` moves, `version` counts the puts; spec 6.7.3), inside the
 *   write's transaction for the events of a write. Events outside content.updated are windows that
 *   close at once.
 * - One poller for both stages and the deliveries: due rows are claimed under a lease, renewed
 *   while this instance works on them; a dead instance's rows are claimed again when the lease
 *   ends. A step that fails (a lookup, a re-read, a database write) gives its row back to be
 *   claimed again a few seconds later, by any instance; if even that fails, the lease is no longer
 *   renewed, so the row is claimed again when it ends.
 * - A window closes in two steps: its key is let go at the version it was claimed with (a later
 *   event opens a new window; a put since the claim keeps it open), then, once the next stage has
 *   its rows (`onClose` resolved), the row is deleted. A crash in between hands the window on again:
 *   a possible duplicate (spec 6.6), never a loss.
 * - Deliveries are rows too (queue persistence): recorded before the attempt, finished done or
 *   dropped after the last one, given back on a graceful stop.
 * - Two clocks on purpose: due times are the dispatcher's clock (injectable, so windows of an hour
 *   can be tested); polls, leases and heartbeats are wall time (whether a process lives).
 */
import { randomUUID } from "node:crypto";
import type { Sql } from "../storage/sql.js";
import { createOutboxRepo, type OutboxRow } from "../storage/webhook-outbox.js";
import { systemClock } from "./clock.js";
import { errorText } from "./error-text.js";
import type { DispatcherLogger } from "./types.js";
import type { DeliveryStore, StoredItem, StoredOutcome, WindowStage, WindowStoreContext, WindowStoreFactory } from "./window-store.js";

export interface OutboxWindowsOptions {
  sql: Sql;
  /** false: only record (a CLI process while a durable server runs); the server delivers. Default true. */
  deliver?: boolean;
  /** Lease of a claimed row, wall-clock ms, renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Outbox poll interval, ms. Default 250. */
  pollMs?: number;
  /** Most rows one instance holds at once (claimed and not finished). Default 1000. */
  maxHeld?: number;
  /** Wall-clock ms before a row whose step failed can be claimed again. Default 5 s. */
  retryMs?: number;
}

/** Finished rows are kept this long (to look at), then pruned. */
const KEEP_FINISHED_MS = 3_600_000;

/** Outbox keys of windows: the in-memory keys with NUL (refused by PostgreSQL text) made visible. */
const dbKey = (stage: WindowStage, key: string) => `${stage}:${key.replaceAll("\0", "|")}`;

const itemOf = (row: OutboxRow): StoredItem => ({
  workspaceId: row.workspaceId,
  event: row.event as StoredItem["event"],
  ...(row.webhookId !== null && { webhookId: row.webhookId }),
  payload: row.payload,
});

/**
 * A window store factory on the outbox of `sql`, with its queue persistence (`deliveries`).
 *
 * @example
 * const dispatcher = createDispatcher({ source, windows: createOutboxWindows({ sql }) });
 * await sql.transaction(async (tx) => { ...write...; await dispatcher.record!(tx, events); });
 */
export function createOutboxWindows(options: OutboxWindowsOptions): WindowStoreFactory & { deliveries: DeliveryStore } {
  const { sql } = options;
  const deliver = options.deliver ?? true;
  const repo = createOutboxRepo(sql);
  const instance = randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const maxHeld = options.maxHeld ?? 1000;
  const retryMs = options.retryMs ?? 5000;
  /** Rows this instance works on: the only ones whose lease it renews. */
  const held = new Set<string>();
  const stages = new Map<WindowStage, WindowStoreContext<unknown>>();
  let clock = systemClock;
  let logger: DispatcherLogger | undefined;
  let send: ((item: StoredItem) => Promise<StoredOutcome>) | undefined;
  const wall = () => Date.now();
  const work = new Set<Promise<unknown>>();
  let closingWindows = 0;
  let sending = 0;
  let stopped = false;
  let started = false;
  let open = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let ticking: Promise<void> | undefined;
  let keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  let closed: Promise<void> | undefined;

  const failed = (what: string) => (err: unknown) => logger?.error(what, { error: errorText(err) });
  const track = (p: Promise<unknown>): void => {
    const tracked = p.catch(failed("webhook outbox task failed"));
    work.add(tracked);
    void tracked.finally(() => work.delete(tracked));
  };

  /** After a failed step: lets the row go, to be claimed again (here or elsewhere) in `retryMs`. */
  const retryLater = (id: string) => async (err: unknown): Promise<void> => {
    held.delete(id);
    failed("webhook outbox step failed; the row is retried in a few seconds")(err);
    await repo
      .release(id, instance, wall() + retryMs)
      .catch(failed("webhook outbox row not given back; it is claimed again when its lease ends"));
  };

  /** Polls in `ms` (real time), unless a poll is already due sooner. */
  const poll = (ms: number): void => {
    if (!started || stopped) return;
    const at = wall() + ms;
    if (timer !== undefined && timerAt <= at) return;
    if (timer !== undefined) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      ticking ??= tick().finally(() => (ticking = undefined));
    }, ms);
    timer.unref();
  };

  const tick = async (): Promise<void> => {
    let more = false;
    try {
      const room = Math.min(maxHeld - closingWindows - sending, 100);
      if (room > 0) {
        const rows = await repo.claim(instance, clock.now(), wall(), wall() + leaseMs, room);
        for (const row of rows) held.add(row.id);
        for (const row of rows) await step(row).catch(retryLater(row.id));
        more = rows.length === room;
      }
    } catch (err) {
      failed("webhook outbox poll failed")(err);
    }
    poll(more ? 0 : pollMs);
  };

  /** Moves one claimed row on: a window closes into its stage's onClose, a delivery is sent. */
  const step = async (row: OutboxRow): Promise<void> => {
    if (row.kind === "delivery") return run(row.id, itemOf(row));
    // Debounce windows name their webhook; coalescing windows (and event rows) do not.
    const stage = stages.get(row.webhookId === null ? "coalesce" : "debounce")!;
    if (row.windowKey !== null && !(await repo.detachWindow(row.id, row.version, instance))) {
      await repo.release(row.id, instance); // put again since the claim: it closes later
      held.delete(row.id);
      return;
    }
    closingWindows++;
    try {
      await stage.onClose(stage.codec.decode(itemOf(row)), row.dueAt);
    } finally {
      closingWindows--;
    }
    // Rows of kind `event` were written before events became windows of their own.
    if (row.kind === "event") await repo.finish(sql, row.id, instance, "done", wall());
    else await repo.remove(row.id, instance);
    held.delete(row.id);
  };

  /** Sends a delivery row this instance holds and finishes it (or gives it back). */
  const run = (id: string, item: StoredItem): void => {
    sending++;
    held.add(id);
    track(
      (async () => {
        const outcome = await send!(item);
        if (outcome === "release") await repo.release(id, instance);
        else await repo.finish(sql, id, instance, outcome, wall());
        held.delete(id);
      })()
        .catch(retryLater(id))
        .finally(() => sending--),
    );
  };

  const keepAlive = async (): Promise<void> => {
    await repo.heartbeat(instance, wall() + leaseMs);
    await repo.renew(instance, wall() + leaseMs, [...held]);
    await repo.prune(wall() - KEEP_FINISHED_MS);
  };

  /** Stops claiming rows; what is under way goes on, its leases still renewed. */
  const stop = async (): Promise<void> => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await ticking;
  };

  const shutdown = async (): Promise<void> => {
    await stop();
    while (work.size > 0) await Promise.all([...work]);
    // Renewed until here: a row given back late (a delivery in its grace period) is never claimed by another instance meanwhile.
    clearInterval(keepAliveTimer);
    if (!started) return;
    await repo.releaseAll(instance).catch((err: unknown) => logger?.warn("webhook outbox rows not given back; they are claimed again after their lease", { error: errorText(err) }));
    await repo.leave(instance).catch(() => undefined);
  };

  const deliveries: DeliveryStore = {
    start(sendItem) {
      send = sendItem;
      if (!deliver || started) return;
      started = true;
      track(keepAlive());
      keepAliveTimer = setInterval(() => track(keepAlive()), leaseMs / 3);
      keepAliveTimer.unref();
      poll(0);
    },
    async add(item, at) {
      const id = await repo.insert(at?.tx ?? sql, "delivery", { ...item, dueAt: clock.now() }, { by: instance, until: wall() + leaseMs });
      run(id, item);
    },
    async poll() {
      poll(0);
      await new Promise((resolve) => setTimeout(resolve, 1));
      await ticking;
    },
    get size() {
      return sending;
    },
  };

  const factory = <V>(context: WindowStoreContext<V>) => {
    stages.set(context.stage, context as WindowStoreContext<unknown>);
    ({ clock, logger } = context);
    open++;
    return {
      async put(key: string, value: V, delayMs: number, at?: { from?: number; tx?: Sql }) {
        const dueAt = (at?.from ?? clock.now()) + delayMs;
        await repo.touchWindow(at?.tx ?? sql, dbKey(context.stage, key), { ...context.codec.encode(value), dueAt });
        // Soon after it is due (a poll before the write committed finds nothing; the regular one follows).
        poll(Math.max(0, dueAt - clock.now()) + 20);
      },
      has: () => false,
      get size() {
        return context.stage === "coalesce" ? closingWindows : 0;
      },
      // spec 6.6 Persistence is superseded here: windows stay in the table for the next instance.
      drain: async (): Promise<V[]> => (await stop(), []),
      close: () => (--open > 0 ? Promise.resolve() : (closed ??= shutdown())),
    };
  };
  return Object.assign(factory, { deliveries });
}
