/**
 * The background filler of stored delivery JSON (storage/entry-deliveries.ts). Entry writes store
 * their own body; what no write stores is filled here, apart from any request: the bodies of a
 * database upgraded from a version that kept none (a pass over every collection at start, which
 * the command line's short-lived service skips), of a collection whose fields changed (its bodies
 * were rendered under the old fingerprint: one pass over it, asked for by the change after it
 * committed, ahead of the start-up pass), and of a collection a delivery read found bodies missing
 * in (a change made by another process, a pass cut short by a close, a row skipped while another
 * transaction held it): the read only signals, in memory, and the pass runs here, at most once per
 * retry delay per collection. Until a body is stored, a read renders the entry from its row, so
 * nothing is ever stale — only slower.
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
/** Delay before a failed pass runs again, and the least time between two passes over a collection a read signalled. */
const RETRY_MS = 30_000;

export interface DeliveryBackfill {
  /**
   * Asks for a pass over collection `collectionId` (after a change of its fields), or over every
   * collection when none is named (at start; passes asked for by name go first). Returns at once;
   * the pass runs in the background. Ignored once closing.
   */
  fill(collectionId?: string): void;
  /**
   * A delivery read found entries of `collectionId` without a body: a pass over it, unless one is
   * asked for, or began within the retry delay. Writes nothing itself; returns at once.
   */
  missing(collectionId: string): void;
  /** Resolves once no pass is asked for or running (a pass waiting to retry after a failure does not count). For tests. */
  idle(): Promise<void>;
  /**
   * Stops within one batch: takes no new work, lets the statement or batch in flight finish and
   * starts no other. What is left (bodies missing) is filled by the next start's pass, or when a
   * read finds it missing; reads render those entries meanwhile.
   */
  close(): Promise<void>;
}

/**
 * The filler of a service. `sql` is the service's own handle, not the one that flushes the
 * tenant copy on each write (storage/version-push.ts): bodies are not tenant data. `retryMs`: the
 * delay before a failed pass runs again, and between two passes a read signals (tests shorten it).
 */
export function createDeliveryBackfill(ctx: { db: Repositories; logger: StorageContext["logger"] }, sql: Sql, retryMs = RETRY_MS): DeliveryBackfill {
  const deliveries = ctx.db.entryDeliveries;
  /** Collections asked for by name (a change of fields, a read's signal, a retry): before the start-up pass. */
  const asked = new Set<string>();
  /** Collections of the start-up pass not filled yet. */
  const startup = new Set<string>();
  /** When the last pass over each collection began, so reads signalling it do not repeat it in a loop. */
  const began = new Map<string, number>();
  let everything = false;
  let closing = false;
  let running: Promise<void> | undefined;
  const retries = new Set<ReturnType<typeof setTimeout>>();
  const waiters: (() => void)[] = [];
  /** Entries whose body could not be rendered, logged once each: every pass skips them again. */
  const reported = new Set<string>();

  const pending = () => asked.size > 0 || startup.size > 0 || everything;

  const retry = (what: string | undefined, error: unknown) => {
    const name = what === undefined ? "the collections" : `collection ${what}`;
    ctx.logger.warn(`Stored delivery JSON of ${name} could not be filled, retried in ${retryMs / 1000} s (reads render those entries until then):`, (error as Error)?.message ?? error);
    if (closing) return;
    const timer = setTimeout(() => {
      retries.delete(timer);
      if (what === undefined) everything = true;
      else asked.add(what);
      start();
    }, retryMs);
    timer.unref?.();
    retries.add(timer);
  };

  /** One pass over a collection, under the fields it has when the pass begins; ends at the first statement after close began. */
  async function fillCollection(id: string): Promise<void> {
    const collection = await ctx.db.collections.byId(id, sql);
    if (!collection || !keepsDeliveryJson(collection)) return;
    const fingerprint = fieldsFingerprint(collection);
    for (let after = ""; ; ) {
      if (closing) return;
      const { ids, last } = await deliveries.missing(id, fingerprint, after, SCAN, sql);
      if (last === undefined) return;
      for (let i = 0; i < ids.length; i += BATCH) {
        if (closing) return;
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

  const take = (set: Set<string>) => {
    const next = set.values().next();
    if (next.done) return undefined;
    set.delete(next.value);
    return next.value;
  };

  async function run(): Promise<void> {
    // Never in the turn that asked: the request or start-up that asked goes on first.
    await yieldTurn();
    while (!closing) {
      // One short statement; a collection already asked for by name is not passed over twice.
      if (everything) {
        everything = false;
        try {
          for (const each of await ctx.db.collections.allIds(sql)) if (!asked.has(each)) startup.add(each);
        } catch (error) {
          retry(undefined, error);
        }
        continue;
      }
      const id = take(asked) ?? take(startup);
      if (id === undefined) return;
      began.set(id, Date.now());
      try {
        await fillCollection(id);
      } catch (error) {
        retry(id, error);
      }
    }
  }

  function start(): void {
    if (running || closing) return;
    running = run().finally(() => {
      running = undefined;
      // Asked for while the last collection was being finished.
      if (pending() && !closing) start();
      else for (const wake of waiters.splice(0)) wake();
    });
  }

  return {
    fill(collectionId) {
      // Storage may be closing: the next start's pass (or a read finding the bodies missing) covers what is asked now.
      if (closing) return;
      if (collectionId === undefined) everything = true;
      else {
        startup.delete(collectionId);
        asked.add(collectionId);
      }
      start();
    },
    missing(collectionId) {
      if (closing || asked.has(collectionId)) return;
      const last = began.get(collectionId);
      if (last !== undefined && Date.now() - last < retryMs) return;
      startup.delete(collectionId);
      asked.add(collectionId);
      start();
    },
    idle() {
      return running || (pending() && !closing) ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
    },
    async close() {
      closing = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      while (running) await running;
    },
  };
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
