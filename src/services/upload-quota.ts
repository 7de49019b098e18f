/**
 * The per-workspace upload quotas: `mediaQuota` for media assets, `submissionFileQuota` for files
 * uploaded with form submissions. Separate on purpose: anyone may submit a form, and visitors
 * filling the one must not use up the space editors upload media into. Checked twice: before any
 * byte is written (a plain read, so a refused upload stores nothing), and again inside the
 * transaction that records the upload, after it (the count is kept by triggers, and concurrent
 * uploads queue on its row), so two uploads at once cannot pass the quota together.
 */
import { ServiceError } from "../core/errors.js";
import type { Sql } from "../storage/sql.js";
import type { UploadKind } from "../storage/upload-usage.js";
import type { ServiceContext } from "./context.js";

const quotaOf = (ctx: ServiceContext, kind: UploadKind) => (kind === "media" ? ctx.options.mediaQuota : ctx.options.submissionFileQuota);

function overQuota(kind: UploadKind, quota: number): ServiceError {
  const what = kind === "media" ? "media assets" : "files uploaded with form submissions";
  return new ServiceError(413, "payload_too_large", `This upload would take the workspace's ${what} past its quota of ${quota} bytes`, { limit: quota });
}

/** 413 when storing `bytes` more of `kind` would pass the workspace's quota. */
export async function assertUploadFits(ctx: ServiceContext, workspaceId: string, kind: UploadKind, bytes: number): Promise<void> {
  const quota = quotaOf(ctx, kind);
  if ((await ctx.db.uploadUsage.bytes(workspaceId, kind)) + bytes > quota) throw overQuota(kind, quota);
}

/** Inside the transaction that recorded an upload: 413 (rolling it back) when the workspace is now past its quota. */
export async function assertWithinQuota(ctx: ServiceContext, workspaceId: string, kind: UploadKind, tx: Sql): Promise<void> {
  const quota = quotaOf(ctx, kind);
  if ((await ctx.db.uploadUsage.bytes(workspaceId, kind, tx)) > quota) throw overQuota(kind, quota);
}
