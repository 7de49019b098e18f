/**
 * Static site deploys at rest: immutable rows in site_deploys (with a manifest path → file) and
 * one live pointer per workspace in site_live, switched in a single statement so readers never
 * see a half-switched site. File bytes live in the blob store under
 * `site/<workspaceId>/<deployId>/<sha256>` (content-addressed: unstorage rewrites `:`, `\` and
 * `?` in keys, so a file's path cannot safely be its key).
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

const toRecord = (r: Row): DeployRecord => ({
  id: r.id,
  file_count: Number(r.file_count),
  size: Number(r.size),
  created_at: r.created_at,
  live: Number(r.live) === 1,
});

/** The blob key of a deploy's file. */
export const siteBlobKey = (workspaceId: string, deployId: string, sha256: string) => `site/${workspaceId}/${deployId}/${sha256}`;

export function createSiteRepo(ctx: ServiceContext) {
  const { sql } = ctx;
  const live = (db: Sql, workspaceId: string) =>
    db.get<LivePointer>("SELECT deploy_id, previous_deploy_id FROM site_live WHERE workspace_id = ?", [workspaceId]);

  return {
    /**
     * Stores a deploy and makes it live in one transaction; the deploy that was live becomes
     * previous_deploy_id (read inside the same upsert, so concurrent deploys cannot lose it).
     */
    async insertLive(workspaceId: string, d: { id: string; manifest: Manifest; size: number; createdAt: string }): Promise<LivePointer> {
      return sql.transaction(async (tx) => {
        await tx.run("INSERT INTO site_deploys (id, workspace_id, file_count, size, manifest, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
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

    /** A deploy's manifest (immutable, so callers may cache it by deploy id). */
    async manifest(workspaceId: string, deployId: string): Promise<Manifest | undefined> {
      const r = await sql.get<{ manifest: string }>("SELECT manifest FROM site_deploys WHERE id = ? AND workspace_id = ?", [deployId, workspaceId]);
      return r ? (JSON.parse(r.manifest) as Manifest) : undefined;
    },
  };
}
