/**
 * The background filler of stored delivery JSON (storage/entry-deliveries.ts). Entry writes store
 * their own body; what no write stores is filled here, apart from any request: the bodies of a
 * database upgraded from a version that kept none (a pass over every collection at start), and of
 * a collection whose fields changed (its bodies were rendered under the old fingerprint: one pass
 * over it, asked for by the change after it committed). Until a body is stored, a read renders the
 * entry from its row, so nothing is ever stale — only slower.
 *
 * Small transactions, a yield between them: reads and writes interleave with a pass over any
 * number of entries, and no write waits behind more than one batch. Each batch re-reads its rows
 * and the collection's fields inside its transaction, so a body always matches the row it is
 * stored for (storage/entry-deliveries.ts `fill`); a definition changed meanwhile ends the pass
 * (the change asked for a pass of its own). Several instances on one PostgreSQL may fill the same
 * collection: a batch skips entries another has stored meanwhile, and an upsert makes a repeat
 * harmless. A row that cannot be rendered is skipped and logged once; any other failure is logged
 * and the pass retried later; neither reaches a request.
 */
import type { Sql } from "../storage/sql.js";
import { fieldsFingerprint, keepsDeliveryJson } from "../storage/entry-deliveries.js";
import type { StorageContext } from "../storage/context.js";
import type { Repositories } from "../storage/repositories.js";

/** Entries looked at per statement when looking for missing bodies. */
const SCAN = 1000;
/** Bodies stored per transaction. */
const BATCH = 200;
/** Delay before a failed pass runs again. */
const RETRY_MS = 30_000;

export interface DeliveryBackfill {
  /**
   * Asks for a pass over collection `collectionId` (after a change of its fields), or over every
   * collection when none is named (at start). Returns at once; the pass runs in the background.
   */
  fill(collectionId?: string): void;
  /** Resolves once no pass is asked for or running (a pass waiting to retry after a failure does not count). For tests. */
  idle(): Promise<void>;
  /**
   * Stops: passes asked for by a change of fields on this instance are finished (a command-line
   * change leaves its collection filled), the start-up pass is left (the next start repeats it).
   */
  close(): Promise<void>;
}

/**
 * The filler of a service. `sql` is the service's own handle, not the one that flushes the
 * tenant copy on each write (storage/version-push.ts): bodies are not tenant data. `retryMs`: the
 * delay before a failed pass runs again (tests shorten it).
 */
export function createDeliveryBackfill(ctx: { db: Repositories; logger: StorageContext["logger"] }, sql: Sql, retryMs = RETRY_MS): DeliveryBackfill {
  const deliveries = ctx.db.entryDeliveries;
  /** Collection id → whether a change of its fields asked for it (finished even when closing). */
  const queue = new Map<string, boolean>();
  let everything = false;
  let closing = false;
  let closed = false;
  let running: Promise<void> | undefined;
  const retries = new Set<ReturnType<typeof setTimeout>>();
  const waiters: (() => void)[] = [];
  /** Entries whose body could not be rendered, logged once each: every pass skips them again. */
  const reported = new Set<string>();

  const retry = (what: string | undefined, changed: boolean, error: unknown) => {
    const name = what === undefined ? "the collections" : `collection ${what}`;
    ctx.logger.warn(`Stored delivery JSON of ${name} could not be filled, retried in ${retryMs / 1000} s (reads render those entries until then):`, (error as Error)?.message ?? error);
    if (closing) return;
    const timer = setTimeout(() => {
      retries.delete(timer);
      if (what === undefined) everything = true;
      else queue.set(what, changed || (queue.get(what) ?? false));
      start();
    }, retryMs);
    timer.unref?.();
    retries.add(timer);
  };

  /** One pass over a collection, under the fields it has when the pass begins. */
  async function fillCollection(id: string, changed: boolean): Promise<void> {
    const collection = await ctx.db.collections.byId(id, sql);
    if (!collection || !keepsDeliveryJson(collection)) return;
    const fingerprint = fieldsFingerprint(collection);
    for (let after = ""; ; ) {
      if (closing && !changed) return;
      const { ids, last } = await deliveries.missing(id, fingerprint, after, SCAN, sql);
      if (last === undefined) return;
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        const current = await sql.transaction(async (tx) => {
          // Share-locked on PostgreSQL: a change of the fields waits for this batch, or ends the pass.
          const now = await ctx.db.collections.byId(id, tx, "share");
          if (!now || fieldsFingerprint(now) !== fingerprint) return false;
          const { failed } = await deliveries.fill(now, batch, tx);
          for (const { id: entryId, error } of failed) {
            if (reported.has(entryId)) continue;
            reported.add(entryId);
            ctx.logger.warn(`Stored delivery JSON of entry ${entryId} could not be rendered, skipped (reads render it from its row):`, (error as Error)?.message ?? error);
          }
          return true;
        });
        if (!current) return;
        await yieldTurn();
      }
      after = last;
      await yieldTurn();
    }
  }

  async function run(): Promise<void> {
    // Never in the turn that asked: the request or start-up that asked goes on first.
    await yieldTurn();
    for (;;) {
      if (everything) {
        everything = false;
        if (closing) continue;
        try {
          for (const id of await ctx.db.collections.allIds(sql)) if (!queue.has(id)) queue.set(id, false);
        } catch (error) {
          retry(undefined, false, error);
        }
        continue;
      }
      const next = queue.entries().next();
      if (next.done) return;
      const [id, changed] = next.value;
      queue.delete(id);
      if (closing && !changed) continue;
      try {
        await fillCollection(id, changed);
      } catch (error) {
        retry(id, changed, error);
      }
    }
  }

  function start(): void {
    if (running) return;
    running = run().finally(() => {
      running = undefined;
      // Asked for while the last collection was being finished.
      if (queue.size > 0 || (everything && !closing)) start();
      else for (const wake of waiters.splice(0)) wake();
    });
  }

  return {
    fill(collectionId) {
      // Storage may be closed already: the next start's pass covers what is asked now.
      if (closed) return;
      if (collectionId === undefined) {
        if (closing) return;
        everything = true;
      } else {
        queue.set(collectionId, true);
      }
      start();
    },
    idle() {
      return running || queue.size > 0 || everything ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
    },
    async close() {
      closing = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      while (running) await running;
      closed = true;
    },
  };
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
