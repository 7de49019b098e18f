/**
 * The durable webhook outbox (migration 009; docs/webhooks.md "Durable delivery"). Rows are written
 * inside the transaction of the write whose events they carry, claimed by one dispatcher at a
 * time under a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite transactions are already
 * exclusive across processes), and finished as done or dropped.
 *
 * Two clocks on purpose: `due_at` is event time (the dispatcher's clock, injectable so debounce
 * windows of minutes can be tested), leases and heartbeats are wall time (whether a process lives).
 */
import type { Sql } from "./sql.js";
import { newRowId } from "./ids.js";

export type OutboxKind = "event" | "window" | "delivery";

export interface OutboxRow {
  id: string;
  kind: OutboxKind;
  workspaceId: string;
  event: string;
  payload: string;
  webhookId: string | null;
  /** Set while a window is open; null once it closed (or for an event row). */
  windowKey: string | null;
  version: number;
  /** When the row became due (event time): a window's close time, an event's write time. */
  dueAt: number;
}

export interface OutboxInsert {
  workspaceId: string;
  event: string;
  payload: string;
  dueAt: number;
  webhookId?: string;
}

interface RawRow {
  id: string;
  kind: OutboxKind;
  workspace_id: string;
  event: string;
  payload: string;
  webhook_id: string | null;
  window_key: string | null;
  version: number | string;
  due_at: number | string;
}

const PENDING = "state = 'pending'";
/** Ids per lease renewal statement (well under the bound parameters of SQLite and PostgreSQL). */
const RENEW_BATCH = 500;

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;

/**
 * @example
 * const outbox = createOutboxRepo(ctx.sql);
 * await ctx.sql.transaction((tx) => outbox.insert(tx, "event", { workspaceId, event, payload, dueAt: Date.now() }));
 */
export function createOutboxRepo(sql: Sql) {
  const claimedRun = async (db: Sql, statement: string, params: (string | number)[]): Promise<boolean> =>
    (await db.run(statement, params)).changes === 1;

  return {
    /** A new row; `claimedBy` with `leaseUntil` makes it this instance's at once (sent right after commit). */
    async insert(db: Sql, kind: OutboxKind, row: OutboxInsert, claim?: { by: string; until: number }): Promise<string> {
      const id = newRowId();
      await db.run(
        `INSERT INTO webhook_outbox (id, kind, workspace_id, event, payload, webhook_id, due_at, claimed_by, lease_until)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, kind, row.workspaceId, row.event, row.payload, row.webhookId ?? null, row.dueAt, claim?.by ?? null, claim?.until ?? 0],
      );
      return id;
    },

    /**
     * Opens the window `key` or puts a newer payload in it: it then closes at `dueAt` (trailing,
     * spec 6.7.3), even when that is sooner than before (the webhook's debounce_ms was lowered).
     * Touches of one window are serialized by its row lock, so the later touch is the later event
     * and always wins. Touching bumps `version`, so a close decided on an older version fails.
     */
    async touchWindow(db: Sql, key: string, row: OutboxInsert): Promise<void> {
      await db.run(
        `INSERT INTO webhook_outbox (id, kind, workspace_id, event, payload, webhook_id, window_key, due_at)
         VALUES (?, 'window', ?, ?, ?, ?, ?, ?)
         ON CONFLICT (window_key) DO UPDATE SET payload = excluded.payload, event = excluded.event,
           due_at = excluded.due_at, version = webhook_outbox.version + 1`,
        [newRowId(), row.workspaceId, row.event, row.payload, row.webhookId ?? null, key, row.dueAt],
      );
    },

    /** Claims up to `limit` due rows whose lease ended (or that nobody holds) for `instance`. */
    async claim(instance: string, dueBy: number, wallNow: number, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
      const where = `${PENDING} AND due_at <= ? AND lease_until <= ?`;
      // A read first: an idle outbox costs one indexed SELECT per poll, never a write lock.
      if (!(await sql.get(`SELECT 1 AS due FROM webhook_outbox WHERE ${where} LIMIT 1`, [dueBy, wallNow]))) return [];
      return sql.transaction(async (tx) => {
        const lock = tx.dialect === "postgresql" ? " FOR UPDATE SKIP LOCKED" : "";
        const rows = await tx.all<RawRow>(
          `SELECT id, kind, workspace_id, event, payload, webhook_id, window_key, version, due_at FROM webhook_outbox
           WHERE ${where} ORDER BY due_at LIMIT ?${lock}`,
          [dueBy, wallNow, limit],
        );
        if (rows.length === 0) return [];
        await tx.run(`UPDATE webhook_outbox SET claimed_by = ?, lease_until = ? WHERE id IN (${rows.map(() => "?").join(", ")})`, [
          instance,
          leaseUntil,
          ...rows.map((r) => r.id),
        ]);
        return rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          workspaceId: r.workspace_id,
          event: r.event,
          payload: r.payload,
          webhookId: r.webhook_id,
          windowKey: r.window_key,
          version: Number(r.version),
          dueAt: Number(r.due_at),
        }));
      });
    },

    /**
     * Closes a claimed window at the version it was claimed with: its key is let go, so an event
     * from now on opens a new window, and the row stays this instance's until `remove` (a crash
     * in between hands it on again after the lease). False when it was touched since the claim.
     */
    detachWindow: (id: string, version: number, instance: string) =>
      claimedRun(sql, `UPDATE webhook_outbox SET window_key = NULL WHERE id = ? AND version = ? AND claimed_by = ?`, [id, version, instance]),

    /** Deletes a closed window this instance handed on. */
    remove: (id: string, instance: string) => claimedRun(sql, `DELETE FROM webhook_outbox WHERE id = ? AND claimed_by = ?`, [id, instance]),

    /** Marks a row this instance holds done or dropped; false when its lease was lost to another instance. */
    finish: (db: Sql, id: string, instance: string, state: "done" | "dropped", at: number) =>
      claimedRun(db, `UPDATE webhook_outbox SET state = ?, finished_at = ?, claimed_by = NULL WHERE id = ? AND claimed_by = ? AND ${PENDING}`, [
        state,
        at,
        id,
        instance,
      ]),

    /**
     * Gives a row back: claimable at once (e.g. a window touched after its claim), or from
     * `notBefore` (wall time) after a failed step, so a brief outage is not retried in a tight loop.
     */
    release: (id: string, instance: string, notBefore = 0) =>
      claimedRun(sql, `UPDATE webhook_outbox SET claimed_by = NULL, lease_until = ? WHERE id = ? AND claimed_by = ?`, [notBefore, id, instance]),

    /** Gives back everything `instance` still holds (graceful stop). */
    async releaseAll(instance: string): Promise<void> {
      await sql.run(`UPDATE webhook_outbox SET claimed_by = NULL, lease_until = 0 WHERE claimed_by = ? AND ${PENDING}`, [instance]);
    },

    /**
     * Extends the lease of the rows `ids` that `instance` still holds: only rows under way, so a
     * row whose step failed (and could not even be given back) is claimed again when its lease ends.
     */
    async renew(instance: string, leaseUntil: number, ids: readonly string[]): Promise<void> {
      for (let i = 0; i < ids.length; i += RENEW_BATCH) {
        const batch = ids.slice(i, i + RENEW_BATCH);
        await sql.run(`UPDATE webhook_outbox SET lease_until = ? WHERE claimed_by = ? AND ${PENDING} AND id IN (${batch.map(() => "?").join(", ")})`, [
          leaseUntil,
          instance,
          ...batch,
        ]);
      }
    },

    /** Deletes finished rows older than `before`. */
    async prune(before: number): Promise<void> {
      await sql.run(`DELETE FROM webhook_outbox WHERE state <> 'pending' AND finished_at < ?`, [before]);
    },

    /** Rows not finished yet (for logs and tests). */
    async pendingCount(): Promise<number> {
      const row = await sql.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM webhook_outbox WHERE ${PENDING}`);
      return Number(row?.n ?? 0);
    },

    /** Records that `instance` delivers from the outbox until `expiresAt`. */
    async heartbeat(instance: string, expiresAt: number): Promise<void> {
      await sql.run(
        `INSERT INTO webhook_dispatchers (instance_id, expires_at) VALUES (?, ?)
         ON CONFLICT (instance_id) DO UPDATE SET expires_at = excluded.expires_at`,
        [instance, expiresAt],
      );
      // Instances that died without leaving.
      await sql.run(`DELETE FROM webhook_dispatchers WHERE expires_at < ?`, [expiresAt - 3_600_000]);
    },

    async leave(instance: string): Promise<void> {
      await sql.run(`DELETE FROM webhook_dispatchers WHERE instance_id = ?`, [instance]);
    },

    /** True while some instance delivers from the outbox (its heartbeat has not expired). */
    async served(wallNow: number): Promise<boolean> {
      return Boolean(await sql.get(`SELECT 1 AS live FROM webhook_dispatchers WHERE expires_at > ? LIMIT 1`, [wallNow]));
    },
  };
}
