/**
 * The media library (spec 2.2 `media`, 4.1), shared by HTTP, MCP and the CLI: upload (the name
 * made safe and the type settled here), list newest first, get, read the bytes, delete. Every
 * lookup is scoped to the workspace: another workspace's asset is simply not found.
 *
 * @example
 * const asset = await uploadMedia(ctx, ws.id, { filename: "logo.png", contentType: "image/png", bytes });
 */
import { contentTypeFor, normalizeContentType, OCTET_STREAM } from "../core/content-types.js";
import { badRequest, payloadTooLarge } from "../core/errors.js";
import { sanitizeFilename } from "../core/filenames.js";
import { toMediaMeta, type MediaMeta, type MediaPage, type MediaRecord } from "../storage/media.js";
import type { ServiceContext } from "./context.js";
import { assertUploadFits, assertWithinQuota } from "./upload-quota.js";

export type { MediaMeta, MediaPage, MediaRecord };

/**
 * Stores an upload: 400 when it is empty, 413 past the upload limit or the workspace's media quota
 * (services/upload-quota.ts; nothing is kept then); the filename is sanitized, and a missing or generic
 * declared type (`application/octet-stream`) is replaced by the one the name implies. The client's
 * type is only ever echoed as the delivery's header (nosniff).
 */
export async function uploadMedia(
  ctx: ServiceContext,
  workspaceId: string,
  upload: { filename: string; contentType?: string; bytes: Uint8Array },
): Promise<MediaRecord> {
  if (upload.bytes.byteLength === 0) throw badRequest("The uploaded file is empty");
  // HTTP stops reading at the limit; callers that hold the bytes already (the CLI) meet it here.
  if (upload.bytes.byteLength > ctx.options.uploadLimit) throw payloadTooLarge(ctx.options.uploadLimit);
  const filename = sanitizeFilename(upload.filename);
  const declared = normalizeContentType(upload.contentType);
  const contentType = declared && declared !== OCTET_STREAM ? declared : contentTypeFor(filename);
  await assertUploadFits(ctx, workspaceId, "media", upload.bytes.byteLength);
  return ctx.db.media.create(workspaceId, { filename, contentType, bytes: upload.bytes }, (tx) => assertWithinQuota(ctx, workspaceId, "media", tx));
}

/** One page of assets, newest first, with the total. */
export function listMedia(ctx: ServiceContext, workspaceId: string, page: { limit: number; offset: number }): Promise<MediaPage> {
  return ctx.db.media.list(workspaceId, page);
}

/** One asset's record, or 404. */
export function getMedia(ctx: ServiceContext, workspaceId: string, id: string): Promise<MediaRecord> {
  return ctx.db.media.get(workspaceId, id);
}

/** One asset's public metadata `{id, filename, content_type, size, created_at, width?, height?}`, or 404. */
export async function getMediaMeta(ctx: ServiceContext, workspaceId: string, id: string): Promise<MediaMeta> {
  return toMediaMeta(await getMedia(ctx, workspaceId, id));
}

/** An asset's record and bytes; 404 when either is gone. */
export function readMedia(ctx: ServiceContext, workspaceId: string, id: string): Promise<{ record: MediaRecord; bytes: Uint8Array }> {
  return ctx.db.media.read(workspaceId, id);
}

/** Deletes an asset and its bytes; 404 for an unknown id. */
export function deleteMedia(ctx: ServiceContext, workspaceId: string, id: string): Promise<void> {
  return ctx.db.media.remove(workspaceId, id);
}
