/**
 * The media library (spec 2.2 `media`): metadata rows in SQL, bytes in the blob store under
 * `media/<workspaceId>/<id>`. Every lookup is scoped to the workspace; a media id of another
 * workspace is simply not found.
 */
import { createHash } from "node:crypto";
import { notFound } from "../core/errors.js";
import { imageSize } from "../core/image-size.js";
import { pageOf, type ListResponse, type PageMeta } from "../core/lists.js";
import type { StorageContext } from "./context.js";
import { newRowId } from "./ids.js";
import type { Sql } from "./sql.js";
import { readBlob, removeBlobs, writeBlob } from "./blob-bytes.js";

/** The management API's record of an asset. */
export interface MediaRecord {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  width?: number;
  height?: number;
  created_at: string;
  /** Public delivery path, relative to the workspace host (spec 4.1). */
  url: string;
}

/** The API form of an asset, as `/meta` answers it (DESIGN §4.2), plus width/height when known. */
export type MediaMeta = Pick<MediaRecord, "id" | "filename" | "content_type" | "size" | "created_at" | "width" | "height">;

export type MediaPage = ListResponse<MediaRecord, PageMeta>;

interface Row {
  id: string;
  workspace_id: string;
  filename: string;
  content_type: string;
  size: number | string;
  sha256: string;
  blob_key: string;
  width: number | null;
  height: number | null;
  created_at: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const toRecord = (r: Row): MediaRecord => ({
  id: r.id,
  filename: r.filename,
  content_type: r.content_type,
  size: Number(r.size),
  sha256: r.sha256,
  ...(r.width !== null && r.height !== null ? { width: Number(r.width), height: Number(r.height) } : {}),
  created_at: r.created_at,
  url: `/api/v1/media/${r.id}`,
});

/** The public meta of a record: no sha256, no url. */
export const toMediaMeta = ({ id, filename, content_type, size, created_at, width, height }: MediaRecord): MediaMeta => ({
  id,
  filename,
  content_type,
  size,
  created_at,
  ...(width !== undefined ? { width, height } : {}),
});

export function createMediaRepo(ctx: StorageContext) {
  const { sql, blobs } = ctx;
  const row = async (workspaceId: string, id: string) => {
    const r = UUID.test(id) ? await sql.get<Row>("SELECT * FROM media WHERE id = ? AND workspace_id = ?", [id, workspaceId]) : undefined;
    if (!r) throw notFound("Media not found");
    return r;
  };

  return {
    /**
     * Stores the bytes, then the row, and runs `guard` after the row inside its transaction (a
     * throw rolls it back); the blob is removed again when the row is not written.
     */
    async create(
      workspaceId: string,
      input: { filename: string; contentType: string; bytes: Uint8Array },
      guard: (tx: Sql) => Promise<void> = async () => {},
    ): Promise<MediaRecord> {
      const id = newRowId();
      const blobKey = `media/${workspaceId}/${id}`;
      const dims = imageSize(input.bytes);
      const r: Row = {
        id,
        workspace_id: workspaceId,
        filename: input.filename,
        content_type: input.contentType,
        size: input.bytes.byteLength,
        sha256: createHash("sha256").update(input.bytes).digest("hex"),
        blob_key: blobKey,
        width: dims?.width ?? null,
        height: dims?.height ?? null,
        created_at: new Date(ctx.now()).toISOString(),
      };
      await writeBlob(blobs, blobKey, input.bytes);
      try {
        await sql.transaction(async (tx) => {
          await tx.run(
            "INSERT INTO media (id, workspace_id, filename, content_type, size, sha256, blob_key, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [r.id, r.workspace_id, r.filename, r.content_type, r.size, r.sha256, r.blob_key, r.width, r.height, r.created_at],
          );
          await guard(tx);
        });
      } catch (error) {
        await removeBlobs(blobs, [blobKey]);
        throw error;
      }
      return toRecord(r);
    },

    /**
     * Newest first; `search` keeps the assets whose filename holds it, ignoring case (a plain
     * substring: no character is a wildcard; lower() folds ASCII on SQLite, every letter on
     * PostgreSQL, as the entries' `contains` does).
     */
    async list(workspaceId: string, page: { limit: number; offset: number; search?: string }): Promise<MediaPage> {
      // PostgreSQL names SQLite's instr strpos: the same plain search, no LIKE wildcards.
      const find = sql.dialect === "postgresql" ? "strpos" : "instr";
      const clause = page.search ? `workspace_id = ? AND ${find}(lower(filename), lower(?)) > 0` : "workspace_id = ?";
      const params = page.search ? [workspaceId, page.search] : [workspaceId];
      const rows = await sql.all<Row>(`SELECT * FROM media WHERE ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]);
      const total = await sql.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM media WHERE ${clause}`, params);
      return pageOf(rows.map(toRecord), Number(total?.n ?? 0), { limit: page.limit, offset: page.offset });
    },

    /** Which of `ids` name an asset of this workspace (another workspace's asset does not). */
    async existing(workspaceId: string, ids: string[], db: Sql = sql): Promise<Set<string>> {
      const wellFormed = ids.filter((id) => UUID.test(id));
      if (wellFormed.length === 0) return new Set();
      const rows = await db.all<{ id: string }>(
        `SELECT id FROM media WHERE workspace_id = ? AND id IN (${wellFormed.map(() => "?").join(", ")})`,
        [workspaceId, ...wellFormed],
      );
      return new Set(rows.map((r) => r.id));
    },

    async get(workspaceId: string, id: string): Promise<MediaRecord> {
      return toRecord(await row(workspaceId, id));
    },

    /** The record and its bytes; 404 when either is gone. */
    async read(workspaceId: string, id: string): Promise<{ record: MediaRecord; bytes: Uint8Array }> {
      const r = await row(workspaceId, id);
      const bytes = await readBlob(blobs, r.blob_key);
      if (!bytes) throw notFound("Media not found");
      return { record: toRecord(r), bytes };
    },

    /** Deletes the row, then the bytes (a leftover blob is logged, never served: the row is gone). */
    async remove(workspaceId: string, id: string): Promise<void> {
      const r = await row(workspaceId, id);
      const { changes } = await sql.run("DELETE FROM media WHERE id = ? AND workspace_id = ?", [r.id, workspaceId]);
      if (changes === 0) throw notFound("Media not found");
      const failure = await removeBlobs(blobs, [r.blob_key]);
      if (failure) ctx.logger.warn(`media ${r.id}: blob not removed:`, failure.message);
    },
  };
}
