/**
 * Files uploaded with submissions: bytes in ctx.blobs under a key derived from workspace,
 * submission and file id; metadata listed with the submission. The client's filename is sanitised
 * and its content type kept only for the download's header (served as an attachment, nosniff).
 */
import { randomUUID } from "node:crypto";
import { normalizeContentType, OCTET_STREAM } from "../core/content-types.js";
import type { SubmissionFile } from "../core/form-values.js";
import { sanitizeFilename } from "../core/filenames.js";
import { readBlob, removeBlobs, writeBlob } from "../storage/blob-bytes.js";
import { submissionBlobKey } from "../storage/submissions.js";
import type { ServiceContext } from "./context.js";

/** One file part of a submit request. */
export interface Upload {
  field: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** Writes the uploads' bytes; on failure removes what was written and rethrows. */
export async function storeUploads(ctx: ServiceContext, workspaceId: string, submissionId: string, uploads: Upload[]): Promise<SubmissionFile[]> {
  const files: SubmissionFile[] = uploads.map((u) => ({
    id: randomUUID(),
    field: u.field,
    filename: sanitizeFilename(u.filename),
    content_type: normalizeContentType(u.type) ?? OCTET_STREAM,
    size: u.bytes.byteLength,
  }));
  try {
    await Promise.all(files.map((f, i) => writeBlob(ctx.blobs, submissionBlobKey(workspaceId, submissionId, f.id), uploads[i]!.bytes)));
  } catch (error) {
    await deleteSubmissionBlobs(ctx, files.map((f) => submissionBlobKey(workspaceId, submissionId, f.id)));
    throw error;
  }
  return files;
}

/** Best-effort removal after the rows are gone; a failure is logged by key only (no personal data). */
export async function deleteSubmissionBlobs(ctx: ServiceContext, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const failure = await removeBlobs(ctx.blobs, keys);
  if (failure) ctx.logger.warn(`could not remove ${keys.length} submission file blob(s):`, failure.message);
}

/** The bytes of one stored file, or undefined when the blob is gone. */
export function readSubmissionFile(ctx: ServiceContext, workspaceId: string, submissionId: string, fileId: string): Promise<Uint8Array | undefined> {
  return readBlob(ctx.blobs, submissionBlobKey(workspaceId, submissionId, fileId));
}
