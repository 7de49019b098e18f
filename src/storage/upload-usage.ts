/**
 * What a workspace stores in uploads, per kind, as the triggers of migration 016 keep it in the
 * writing transaction (upload_usage): media assets and files uploaded with form submissions.
 */
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";

/** The uploads a quota counts separately. */
export type UploadKind = "media" | "submissions";

export function createUploadUsageRepo(ctx: StorageContext) {
  return {
    /** Bytes the workspace stores of `kind`, as `db` sees them (inside a write: with that write). */
    async bytes(workspaceId: string, kind: UploadKind, db: Sql = ctx.sql): Promise<number> {
      const row = await db.get<{ bytes: number | string }>("SELECT bytes FROM upload_usage WHERE workspace_id = ? AND kind = ?", [workspaceId, kind]);
      return Number(row?.bytes ?? 0);
    },
  };
}
