/**
 * Static site deploys at rest: immutable rows in site_deploys (with a manifest path → file) and
 * one live pointer per workspace in site_live, switched in a single statement so readers never
 * see a half-switched site. File bytes live in the blob store, content-addressed (site-blobs.ts:
 * unstorage rewrites `:`, `\` and `?` in keys, so a file's path cannot safely be its key); a
 * deploy's `layout` says where (1: per deploy, made before shared storage; 2: shared).
 */
import { conflict, notFound } from "../core/errors.js";
import { pageOf } from "../core/lists.js";
import type { ServiceContext } from "../service-context.js";
import type { Sql } from "./sql.js";

/** One file of a deploy. */
export interface ManifestFile {
  size: number;
  sha256: string;
  content_type: string;
}

/** Normalised path (no leading slash) → file. */
export type Manifest = Record<string, ManifestFile>;

/** A deploy as the API lists it. */
export interface DeployRecord {
  id: string;
  file_count: number;
  size: number;
  created_at: string;
  live: boolean;
}

export interface LivePointer {
  deploy_id: string;
  previous_deploy_id: string | null;
}

interface Row {
  id: string;
  file_count: number | string;
  size: number | string;
  created_at: string;
  live: number | string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SELECT = `SELECT d.id, d.file_count, d.size, d.created_at, CASE WHEN l.deploy_id = d.id THEN 1 ELSE 0 END AS live
  FROM site_deploys d LEFT JOIN site_live l ON l.workspace_id = d.workspace_id`;

interface StoredRow {
  id: string;
  layout: number | string;
  size: number | string;
  manifest: string;
}

const toStored = (r: StoredRow): StoredDeploy => ({
  id: r.id,
  layout: Number(r.layout) === 2 ? 2 : 1,
  size: Number(r.size),
  manifest: JSON.parse(r.manifest) as Manifest,
});

const toRecord = (r: Row): DeployRecord => ({
  id: r.id,
  file_count: Number(r.file_count),
  size: Number(r.size),
  created_at: r.created_at,
  live: Number(r.live) === 1,
});

/** A deploy's files and where they are stored. */
export interface StoredDeploy {
  id: string;
  layout: 1 | 2;
  size: number;
  manifest: Manifest;
}

export function createSiteRepo(ctx: ServiceContext) {
  const { sql } = ctx;
  const live = (db: Sql, workspaceId: string) =>
    db.get<LivePointer>("SELECT deploy_id, previous_deploy_id FROM site_live WHERE workspace_id = ?", [workspaceId]);

  return {
    /**
     * Stores a deploy and makes it live in one transaction; the deploy that was live becomes
     * previous_deploy_id (read inside the same upsert, so concurrent deploys cannot lose it).
     */
    async insertLive(
      workspaceId: string,
      d: { id: string; manifest: Manifest; size: number; createdAt: string },
      guard: (tx: Sql) => Promise<void>,
    ): Promise<LivePointer> {
      return sql.transaction(async (tx) => {
        await guard(tx);
        await tx.run("INSERT INTO site_deploys (id, workspace_id, file_count, size, manifest, created_at, layout) VALUES (?, ?, ?, ?, ?, ?, 2)", [
          d.id,
          workspaceId,
          Object.keys(d.manifest).length,
          d.size,
          JSON.stringify(d.manifest),
          d.createdAt,
        ]);
        await tx.run(
          `INSERT INTO site_live (workspace_id, deploy_id, previous_deploy_id, updated_at) VALUES (?, ?, NULL, ?)
           ON CONFLICT (workspace_id) DO UPDATE SET previous_deploy_id = site_live.deploy_id, deploy_id = excluded.deploy_id, updated_at = excluded.updated_at`,
          [workspaceId, d.id, d.createdAt],
        );
        return (await live(tx, workspaceId))!;
      });
    },

    /**
     * Points the site at `target` if `expected` is still live (compare-and-set); the old live
     * deploy becomes previous_deploy_id. 409 when another switch got there first.
     */
    async switchLive(workspaceId: string, expected: string, target: string): Promise<LivePointer> {
      const { changes } = await sql.run(
        "UPDATE site_live SET previous_deploy_id = deploy_id, deploy_id = ?, updated_at = ? WHERE workspace_id = ? AND deploy_id = ?",
        [target, new Date(ctx.now()).toISOString(), workspaceId, expected],
      );
      if (changes === 0) throw conflict("The live deploy changed while rolling back; list the deploys and try again");
      return { deploy_id: target, previous_deploy_id: expected };
    },

    /** The live pointer, read fresh on every call (rollback takes effect on the next request). */
    live: (workspaceId: string) => live(sql, workspaceId),

    /** Newest first, with `live` on the live one. */
    async list(workspaceId: string, page: { limit: number; offset: number }) {
      const rows = await sql.all<Row>(`${SELECT} WHERE d.workspace_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`, [workspaceId, page.limit, page.offset]);
      const total = await sql.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM site_deploys WHERE workspace_id = ?", [workspaceId]);
      return pageOf(rows.map(toRecord), Number(total?.n ?? 0), page);
    },

    async get(workspaceId: string, id: string): Promise<DeployRecord> {
      const r = UUID.test(id) ? await sql.get<Row>(`${SELECT} WHERE d.workspace_id = ? AND d.id = ?`, [workspaceId, id]) : undefined;
      if (!r) throw notFound("Deploy not found", { deploy_id: id });
      return toRecord(r);
    },

    /** A deploy's files (immutable, so callers may cache them by deploy id). */
    async stored(workspaceId: string, deployId: string): Promise<StoredDeploy | undefined> {
      const r = await sql.get<StoredRow>("SELECT id, layout, size, manifest FROM site_deploys WHERE id = ? AND workspace_id = ?", [deployId, workspaceId]);
      return r ? toStored(r) : undefined;
    },

    /** Every deploy of the workspace with its files, newest first. */
    async allStored(workspaceId: string): Promise<StoredDeploy[]> {
      const rows = await sql.all<StoredRow>("SELECT id, layout, size, manifest FROM site_deploys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC", [workspaceId]);
      return rows.map(toStored);
    },

    /**
     * Deletes deploys, never the live one (a rollback may have moved the pointer since the caller
     * chose); a deleted previous deploy is no longer the rollback target. Answers the ids deleted.
     */
    async remove(workspaceId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const list = ids.map(() => "?").join(", ");
      const left = await sql.transaction(async (tx) => {
        await tx.run(`UPDATE site_live SET previous_deploy_id = NULL WHERE workspace_id = ? AND previous_deploy_id IN (${list})`, [workspaceId, ...ids]);
        await tx.run(
          `DELETE FROM site_deploys WHERE workspace_id = ? AND id IN (${list}) AND id NOT IN (SELECT deploy_id FROM site_live WHERE workspace_id = ?)`,
          [workspaceId, ...ids, workspaceId],
        );
        return tx.all<{ id: string }>(`SELECT id FROM site_deploys WHERE workspace_id = ? AND id IN (${list})`, [workspaceId, ...ids]);
      });
      const kept = new Set(left.map((r) => r.id));
      return ids.filter((id) => !kept.has(id));
    },
  };
}
