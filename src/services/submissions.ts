/**
 * Submission use cases (spec 2.2 submissions: read, edit, delete, with their file uploads). The
 * caller has checked submissions:read or :write; nothing here is reachable with forms:* alone
 * (spec 5.4.4).
 */
import { notFound } from "../core/errors.js";
import { validateSubmissionPatch, type SubmissionFile } from "../core/form-values.js";
import { dataRecord } from "../core/records.js";
import { submissionBlobKey, type StoredSubmission } from "../storage/submissions.js";
import type { ServiceContext } from "./context.js";
import { getForm } from "./forms.js";
import { deleteSubmissionBlobs, readSubmissionFile } from "./submission-files.js";

/** A submission in its API form and as stored, for callers outside services. */
export { submissionView } from "../storage/submissions.js";
export type { StoredSubmission };

/** A page of a form's submissions, newest first. */
export async function listSubmissions(ctx: ServiceContext, workspaceId: string, slug: string, page: { limit: number; offset: number }) {
  const form = await getForm(ctx, workspaceId, slug);
  const { rows, total } = await ctx.db.submissions.list(form.id, page);
  return { rows, total, ...page };
}

/** One submission of a form, or 404. */
export async function getSubmission(ctx: ServiceContext, workspaceId: string, slug: string, id: string): Promise<StoredSubmission> {
  const form = await getForm(ctx, workspaceId, slug);
  const found = await ctx.db.submissions.get(form.id, id);
  if (!found) throw notFound("Unknown submission");
  return found;
}

/**
 * Edits values (PATCH): named fields are validated against the form's current fields; `null`
 * clears a field that is not required (for a file field it deletes the file).
 */
export async function patchSubmission(ctx: ServiceContext, workspaceId: string, slug: string, id: string, patch: Record<string, unknown>): Promise<StoredSubmission> {
  const submissions = ctx.db.submissions;
  const { after, dropped } = await ctx.sql.transaction(async (tx) => {
    const form = await getForm(ctx, workspaceId, slug, tx, true);
    const before = await submissions.get(form.id, id, tx);
    if (!before) throw notFound("Unknown submission");
    const { set, clear } = validateSubmissionPatch(form.fields, patch, before.data);
    const data = dataRecord({ ...before.data, ...set });
    for (const name of clear) delete data[name];
    const dropped: SubmissionFile[] = before.files.filter((f) => clear.includes(f.field));
    const after: StoredSubmission = {
      ...before,
      data,
      files: before.files.filter((f) => !clear.includes(f.field)),
      updated_at: new Date(ctx.now()).toISOString(),
    };
    await submissions.update(after, tx);
    return { after, dropped };
  });
  await deleteSubmissionBlobs(ctx, dropped.map((f) => submissionBlobKey(workspaceId, id, f.id)));
  return after;
}

/** Deletes a submission and, after commit, its files' blobs. */
export async function deleteSubmission(ctx: ServiceContext, workspaceId: string, slug: string, id: string): Promise<void> {
  const submissions = ctx.db.submissions;
  const gone = await ctx.sql.transaction(async (tx) => {
    const form = await getForm(ctx, workspaceId, slug, tx);
    const found = await submissions.get(form.id, id, tx);
    if (!found) throw notFound("Unknown submission");
    await submissions.remove(id, tx);
    return found;
  });
  await deleteSubmissionBlobs(ctx, gone.files.map((f) => submissionBlobKey(workspaceId, id, f.id)));
}

/** One uploaded file of a submission with its bytes, or 404. */
export async function getSubmissionFile(ctx: ServiceContext, workspaceId: string, slug: string, id: string, fileId: string) {
  const submission = await getSubmission(ctx, workspaceId, slug, id);
  const file = submission.files.find((f) => f.id === fileId);
  const bytes = file && (await readSubmissionFile(ctx, workspaceId, id, file.id));
  if (!file || !bytes) throw notFound("Unknown file");
  return { file, bytes };
}
