/**
 * One site deploy at a time per workspace, across processes: a lease row in site_leases, taken
 * with a conditional upsert, renewed while held and checked inside the transaction that makes a
 * deploy live. Writing shared files and deleting unreferenced ones therefore never overlap, and a
 * holder that died loses the lease when it expires.
 */
import { randomUUID } from "node:crypto";
import { conflict } from "../core/errors.js";
import type { Sql } from "./sql.js";

/** A held lease. */
export interface SiteLease {
  /** Extends the lease; throws 409 when it was lost (expired and taken by another deploy). */
  check(db?: Sql): Promise<void>;
  /** Gives the lease up (idempotent). */
  release(): Promise<void>;
}

export interface SiteLeaseOptions {
  /** How long a lease lives without renewal, ms. Default 60 s. */
  ttlMs?: number;
  /** How long to wait for a lease another deploy holds, ms. Default 30 s. */
  waitMs?: number;
}

// Wall-clock time on purpose: a lease measures whether a process is still alive, not content time.
const clock = () => Date.now();

/**
 * Takes the site lease of `workspaceId`, waiting while another deploy holds it; 409 when it is
 * still held after `waitMs`.
 *
 * @example
 * const lease = await acquireSiteLease(ctx.sql, ws.id);
 * try { … await lease.check(tx); … } finally { await lease.release(); }
 */
export async function acquireSiteLease(sql: Sql, workspaceId: string, options: SiteLeaseOptions = {}): Promise<SiteLease> {
  const ttl = options.ttlMs ?? 60_000;
  const token = randomUUID();
  const deadline = clock() + (options.waitMs ?? 30_000);
  for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
    const now = clock();
    const { changes } = await sql.run(
      `INSERT INTO site_leases (workspace_id, token, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (workspace_id) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
       WHERE site_leases.expires_at < ?`,
      [workspaceId, token, now + ttl, now],
    );
    if (changes > 0) break;
    if (now > deadline) throw conflict("Another deploy of this site is in progress; try again when it has finished");
    await new Promise((r) => setTimeout(r, delay));
  }

  let lost = false;
  const renew = async (db: Sql) => {
    const { changes } = await db.run("UPDATE site_leases SET expires_at = ? WHERE workspace_id = ? AND token = ?", [clock() + ttl, workspaceId, token]);
    if (changes === 0) lost = true;
  };
  const timer = setInterval(() => void renew(sql).catch(() => {}), ttl / 3);
  timer.unref();
  return {
    async check(db = sql) {
      if (!lost) await renew(db);
      if (lost) throw conflict("This deploy took too long and another deploy of the site took over; deploy again");
    },
    async release() {
      clearInterval(timer);
      await sql.run("DELETE FROM site_leases WHERE workspace_id = ? AND token = ?", [workspaceId, token]);
    },
  };
}
