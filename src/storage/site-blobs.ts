/**
 * The shared site files of a workspace (site_blobs): one blob per distinct content, keyed by its
 * SHA-256, whatever the path or the deploy. Callers hold the workspace's site lease
 * (site-lease.ts) while they change these rows, so claims and deletions never interleave.
 */
import type { ServiceContext } from "../service-context.js";

/** The blob key of a workspace's site file with this content. */
export const siteBlobKey = (workspaceId: string, sha256: string) => `site/${workspaceId}/sha256/${sha256}`;

/** Where deploys made before shared storage keep their files (layout 1). */
export const legacySiteBlobKey = (workspaceId: string, deployId: string, sha256: string) => `site/${workspaceId}/${deployId}/${sha256}`;

// Keeps every statement well under SQLite's bound-parameter limit.
const BATCH = 300;

function* batches<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

const marks = (n: number, mark = "?") => Array.from({ length: n }, () => mark).join(", ");

export function createSiteBlobRepo(ctx: ServiceContext) {
  const { sql } = ctx;
  return {
    /**
     * Registers `hashes` (not yet stored, when new) and answers those whose bytes are already
     * stored: the only ones a deploy may skip writing.
     */
    async claim(workspaceId: string, hashes: string[]): Promise<Set<string>> {
      const stored = new Set<string>();
      for (const batch of batches(hashes)) {
        await sql.run(
          `INSERT INTO site_blobs (workspace_id, sha256, stored) VALUES ${marks(batch.length, "(?, ?, 0)")} ON CONFLICT (workspace_id, sha256) DO NOTHING`,
          batch.flatMap((h) => [workspaceId, h]),
        );
        const rows = await sql.all<{ sha256: string }>(`SELECT sha256 FROM site_blobs WHERE workspace_id = ? AND stored = 1 AND sha256 IN (${marks(batch.length)})`, [
          workspaceId,
          ...batch,
        ]);
        for (const r of rows) stored.add(r.sha256);
      }
      return stored;
    },

    /** Records that the bytes of `hashes` are written. */
    async markStored(workspaceId: string, hashes: string[]): Promise<void> {
      for (const batch of batches(hashes)) {
        await sql.run(`UPDATE site_blobs SET stored = 1 WHERE workspace_id = ? AND sha256 IN (${marks(batch.length)})`, [workspaceId, ...batch]);
      }
    },

    /** Every registered hash of the workspace. */
    async all(workspaceId: string): Promise<string[]> {
      return (await sql.all<{ sha256: string }>("SELECT sha256 FROM site_blobs WHERE workspace_id = ?", [workspaceId])).map((r) => r.sha256);
    },

    /** Unregisters `hashes` (their bytes are deleted afterwards by the caller). */
    async forget(workspaceId: string, hashes: string[]): Promise<void> {
      for (const batch of batches(hashes)) {
        await sql.run(`DELETE FROM site_blobs WHERE workspace_id = ? AND sha256 IN (${marks(batch.length)})`, [workspaceId, ...batch]);
      }
    },
  };
}
