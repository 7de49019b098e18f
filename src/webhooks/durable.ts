/**
 * Durable webhook delivery (opt-in; docs/webhooks.md "Durable delivery"). The events of a write
 * are recorded in the outbox table inside the writing transaction (`record`), and dispatchers
 * deliver from the table: nothing acknowledged is lost to a crash, a SIGKILL or a restart.
 *
 * Decisions:
 * - The same stages as the in-memory dispatcher (matching.ts): content.updated is coalesced per
 *   entry for `coalesceMs` (a window row written by the write itself), then the webhooks are
 *   matched, then a webhook's debounce_ms window (a window row per key), then one delivery row per
 *   webhook. Windows are trailing: a touch moves `due_at` and bumps `version`; a close decided on
 *   an older version fails and the row is given back (spec 6.7.3).
 * - Every step from one row to the next (close a window + open deliveries, match + open windows)
 *   is one transaction, so a crash leaves either the old row or the new ones.
 * - Rows are claimed under a lease renewed while this instance holds them; a dead instance's rows
 *   are claimed again when the lease ends, so a delivery cut short may be sent twice (spec 6.6
 *   allows duplicates), never zero times.
 * - Sending goes through the in-memory dispatcher's queue (`inner.deliverNow`): same address
 *   checks, signing, timeout, 3 attempts with waits 1 s and 2 s, and a re-read of the webhook
 *   before each attempt. A delivery then is done, or dropped after the last failure (logged).
 * - Graceful close keeps windows (they are in the table) and gives back unfinished rows at once.
 */
import { randomUUID } from "node:crypto";
import type { ServiceEvent } from "../core/events.js";
import type { Sql } from "../storage/sql.js";
import { createOutboxRepo, type OutboxRow } from "../storage/webhook-outbox.js";
import { coalesceKey, debounceWindow, wantsEvent } from "./matching.js";
import type { Dispatcher, DispatcherClock, DispatcherLogger, WebhookSource, WebhookTarget } from "./types.js";

/** Where the write path hands its events in durable mode (inside its transaction). */
export interface EventOutbox {
  record(tx: Sql, events: ServiceEvent[]): Promise<void>;
}

export interface DurableDispatcherOptions {
  sql: Sql;
  /** Sends: the in-memory dispatcher, used only through deliverNow. Closed by this one. */
  inner: Dispatcher;
  source: Required<WebhookSource>;
  clock: DispatcherClock;
  logger: DispatcherLogger;
  coalesceMs: number;
  /** false: only record (a CLI process while a durable server runs); the server delivers. */
  deliver: boolean;
  /** Lease of a claimed row, wall-clock ms, renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Outbox poll interval, ms. Default 250. */
  pollMs?: number;
  /** Most rows one instance holds at once (claimed and not finished). Default 1000. */
  maxHeld?: number;
}

export type DurableDispatcher = Dispatcher & EventOutbox;

/** Outbox keys of windows: the in-memory keys with NUL (refused by PostgreSQL text) made visible. */
const dbKey = (stage: "coalesce" | "debounce", key: string) => `${stage}:${key.replaceAll("\0", "|")}`;

/** Finished rows are kept this long (to look at), then pruned. */
const KEEP_FINISHED_MS = 3_600_000;

/**
 * @example
 * const durable = createDurableDispatcher({ sql, inner, source, clock, logger, coalesceMs: 500, deliver: true });
 * await sql.transaction(async (tx) => { ...write...; await durable.record(tx, events); });
 */
export function createDurableDispatcher(options: DurableDispatcherOptions): DurableDispatcher {
  const { sql, inner, source, clock, logger } = options;
  const repo = createOutboxRepo(sql);
  const instance = randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const maxHeld = options.maxHeld ?? 1000;
  const wall = () => Date.now();
  const claim = () => ({ by: instance, until: wall() + leaseMs });
  const work = new Set<Promise<unknown>>();
  let held = 0;
  let dropped = 0;
  let closing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let ticking: Promise<void> | undefined;

  const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const track = (p: Promise<unknown>): void => {
    const tracked = p.catch((err: unknown) => logger.error("webhook outbox step failed; the row is retried after its lease", { error: errorText(err) }));
    work.add(tracked);
    void tracked.finally(() => work.delete(tracked));
  };

  /** Polls in `ms` (real time), unless a poll is already due sooner. */
  const poll = (ms: number): void => {
    if (!options.deliver || closing) return;
    const at = Date.now() + ms;
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
    let full = false;
    try {
      const room = maxHeld - held;
      if (room > 0) {
        const rows = await repo.claim(instance, clock.now(), wall(), wall() + leaseMs, Math.min(room, 100));
        for (const row of rows) await step(row).catch((err: unknown) => logger.error("webhook outbox step failed; the row is retried after its lease", { error: errorText(err) }));
        full = rows.length === Math.min(room, 100);
      }
    } catch (err) {
      logger.error("webhook outbox poll failed", { error: errorText(err) });
    }
    poll(full ? 0 : pollMs);
  };

  /** Moves one claimed row on: a delivery is sent, a window closes, an event is matched. */
  const step = async (row: OutboxRow): Promise<void> => {
    const event = JSON.parse(row.payload) as ServiceEvent;
    if (row.kind === "delivery") return send(row.id, row.webhookId!, event);
    if (row.kind === "window" && row.webhookId) {
      // A debounce window closes: its last event becomes one delivery.
      const id = await sql.transaction(async (tx) =>
        (await repo.closeWindow(tx, row.id, row.version, instance))
          ? repo.insert(tx, "delivery", { workspaceId: row.workspaceId, event: row.event, payload: row.payload, webhookId: row.webhookId!, dueAt: clock.now() }, claim())
          : undefined,
      );
      if (id) return send(id, row.webhookId, event);
      await repo.release(row.id, instance); // touched since the claim: it closes later
      return;
    }
    // An event, or a closed coalescing window: match the workspace's webhooks (spec 6.7.1 then 6.7.2).
    const targets = (await source.targetsFor(row.workspaceId, event.event)).filter((t) => wantsEvent(t, event));
    const now = [] as { id: string; target: WebhookTarget }[];
    const moved = await sql.transaction(async (tx) => {
      const mine =
        row.kind === "window" ? await repo.closeWindow(tx, row.id, row.version, instance) : await repo.finish(tx, row.id, instance, "done", wall());
      if (!mine) return false;
      for (const target of targets) {
        const window = debounceWindow(target, event);
        const next = { workspaceId: row.workspaceId, event: row.event, payload: row.payload, webhookId: target.id, dueAt: clock.now() };
        // Counted from the event (or the coalescing window's close), not from when a poll saw it.
        if (window) await repo.touchWindow(tx, dbKey("debounce", window.key), { ...next, dueAt: row.dueAt + window.delayMs });
        else now.push({ id: await repo.insert(tx, "delivery", next, claim()), target });
      }
      return true;
    });
    if (!moved && row.kind === "window") await repo.release(row.id, instance);
    for (const { id, target } of now) send(id, target, event);
  };

  /** Sends a delivery row this instance holds and finishes it; on close, an unfinished one is given back. */
  const send = (id: string, webhook: string | WebhookTarget, event: ServiceEvent): void => {
    held++;
    track(
      (async () => {
        const target = typeof webhook === "string" ? await source.current(event.workspaceId, webhook) : webhook;
        if (!target || !wantsEvent(target, event)) {
          dropped++;
          logger.info("webhook delivery dropped: the webhook was deleted, deactivated or unsubscribed", { workspace: event.workspaceId, event: event.event });
          await repo.finish(sql, id, instance, "dropped", wall());
          return;
        }
        const result = await inner.deliverNow(target, event, { retries: true, reread: true });
        if (!result.ok && closing) return void (await repo.release(id, instance));
        await repo.finish(sql, id, instance, result.ok ? "done" : "dropped", wall());
      })().finally(() => held--),
    );
  };

  const keepAlive = async (): Promise<void> => {
    await repo.heartbeat(instance, wall() + leaseMs);
    await repo.renew(instance, wall() + leaseMs);
    await repo.prune(wall() - KEEP_FINISHED_MS);
  };
  let keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  if (options.deliver) {
    track(keepAlive());
    keepAliveTimer = setInterval(() => track(keepAlive()), leaseMs / 3);
    keepAliveTimer.unref();
    poll(0);
  }

  const shutdown = async (graceMs: number | undefined): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    clearInterval(keepAliveTimer);
    await ticking;
    // Deliveries under way get the grace period; what did not finish goes back to the outbox.
    await inner.close(graceMs === undefined ? undefined : { graceMs });
    while (work.size > 0) await Promise.all([...work]);
    if (!options.deliver) return;
    await repo.releaseAll(instance).catch((err: unknown) => logger.warn("webhook outbox rows not given back; they are claimed again after their lease", { error: errorText(err) }));
    await repo.leave(instance).catch(() => undefined);
  };

  return {
    async record(tx, events) {
      const at = clock.now();
      for (const event of events) {
        const row = { workspaceId: event.workspaceId, event: event.event, payload: JSON.stringify(event), dueAt: at };
        const key = coalesceKey(event);
        if (key === undefined) await repo.insert(tx, "event", row);
        else await repo.touchWindow(tx, dbKey("coalesce", key), { ...row, dueAt: at + options.coalesceMs });
      }
      // Soon after the commit (a poll before it finds nothing and the regular one follows).
      poll(events.some((e) => coalesceKey(e) === undefined) ? 20 : options.coalesceMs + 20);
    },
    emit() {
      // Durable mode: the write path recorded its events in its own transaction (record).
    },
    deliverNow: (target, event, opts) => inner.deliverNow(target, event, opts),
    // A redelivery is an owner's explicit resend of a logged body: it goes through the in-memory
    // queue (with retries) rather than the outbox, so a crash during it is not recovered.
    redeliver: (target, delivery) => inner.redeliver(target, delivery),
    async flush() {
      poll(0);
      await new Promise((resolve) => setTimeout(resolve, 1));
      await ticking;
    },
    close(closeOptions) {
      closing ??= shutdown(closeOptions?.graceMs);
      return closing;
    },
    stats() {
      const s = inner.stats();
      return { ...s, pending: held, dropped: s.dropped + dropped };
    },
  };
}
