/**
 * The media library (spec 2.2 `media`, 4.1), shared by HTTP, MCP and the CLI: upload (the name
 * made safe and the type settled here), list newest first, get, read the bytes, delete. Every
 * lookup is scoped to the workspace: another workspace's asset is simply not found. An asset that
 * entries use is deleted only when forced.
 *
 * @example
 * const asset = await uploadMedia(ctx, ws.id, { filename: "logo.png", contentType: "image/png", bytes });
 */
import { contentTypeFor, normalizeContentType, OCTET_STREAM } from "../core/content-types.js";
import { badRequest, conflict, isServiceError, payloadTooLarge, type ServiceError } from "../core/errors.js";
import { sanitizeFilename } from "../core/filenames.js";
import { isNarrowed } from "../core/key-scope.js";
import type { Actor } from "../core/principal.js";
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

/** The longest filename search accepted (DESIGN §7: the service bounds what a caller varies). */
export const MEDIA_SEARCH_MAX = 100;

/**
 * One page of assets, newest first, with the total; `search` keeps the filenames holding it,
 * ignoring case (400 past MEDIA_SEARCH_MAX characters).
 */
export function listMedia(ctx: ServiceContext, workspaceId: string, page: { limit: number; offset: number; search?: string }): Promise<MediaPage> {
  if (page.search !== undefined && page.search.length > MEDIA_SEARCH_MAX) {
    throw badRequest(`search: at most ${MEDIA_SEARCH_MAX} characters`, { parameter: "search", maximum: MEDIA_SEARCH_MAX });
  }
  return ctx.db.media.list(workspaceId, { ...page, search: page.search || undefined });
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

/**
 * How many entries of the workspace hold the asset in a media field, drafts included: one count
 * per collection that has a media field.
 */
export async function mediaUsage(ctx: ServiceContext, workspaceId: string, id: string): Promise<number> {
  let used = 0;
  for (const c of await ctx.db.collections.list(workspaceId)) {
    const fields = c.fields.filter((f) => f.type === "media").map((f) => f.name);
    if (fields.length > 0) used += await ctx.db.entries.countHolding(c.id, fields, id);
  }
  return used;
}

/**
 * Deletes an asset and its bytes; 404 for an unknown id. An asset that entries use is refused with
 * 409 `{error: "<filename> is used by N entries", used_by: N}` unless `force`: those entries would
 * keep an id that no longer resolves (docs/media.md "Deleting an asset that entries use"). The
 * count and the delete are two steps: an entry that picks the asset in between is not counted.
 */
export async function deleteMedia(ctx: ServiceContext, workspaceId: string, id: string, options: { force?: boolean; actor?: Actor } = {}): Promise<void> {
  if (!options.force) {
    const record = await ctx.db.media.get(workspaceId, id);
    const used = await mediaUsage(ctx, workspaceId, id);
    // Refused on every use, but a narrowed key is not told a count that includes entries it cannot see.
    if (used > 0 && isNarrowed(options.actor)) throw conflict(`${record.filename} is used by entries`, { used_by: null });
    if (used > 0) throw conflict(`${record.filename} is used by ${used} ${used === 1 ? "entry" : "entries"}`, { used_by: used });
  }
  return ctx.db.media.remove(workspaceId, id);
}

/** Whether `error` is deleteMedia's refusal of an asset in use. */
export const isMediaInUse = (error: unknown): error is ServiceError =>
  isServiceError(error) && error.status === 409 && error.details !== undefined && "used_by" in error.details;
