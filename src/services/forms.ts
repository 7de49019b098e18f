/**
 * Form use cases shared by HTTP, MCP and the CLI: definitions (create, change checked against
 * stored submissions per spec 5.4.5, delete) and THE submit path (spec 4.1, 6.2): validate, store,
 * and only after commit emit form.submitted with identifiers only, never a visitor's value (2.7).
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict, notFound } from "../core/errors.js";
import { countViolations, storedValues, validateSubmission, type SubmissionFile } from "../core/form-values.js";
import { fieldsToCheck, isFormSlug, narrowedFields, parseFormDefinition } from "../core/forms.js";
import { dataRecord, own } from "../core/records.js";
import { isUniqueViolation } from "../storage/driver-errors.js";
import { newRowId } from "../storage/ids.js";
import type { StoredForm } from "../storage/forms.js";
import { submissionBlobKey } from "../storage/submissions.js";
import type { Sql } from "../storage/sql.js";
import type { ServiceEvent } from "../core/events.js";
import { emitEvents } from "./bus.js";
import type { ServiceContext } from "./context.js";
import { deleteSubmissionBlobs, storeUploads, type Upload } from "./submission-files.js";
import { assertUploadFits, assertWithinQuota } from "./upload-quota.js";

/** A form in its API form and as stored, for callers outside services. */
export { formView } from "../storage/forms.js";
export type { StoredForm };

const SCAN_PAGE = 500;

/** Every form of a workspace, by slug. */
export function listForms(ctx: ServiceContext, workspaceId: string): Promise<StoredForm[]> {
  return ctx.db.forms.list(workspaceId);
}

/** One form, or 404 `Unknown form: <slug>`. */
export async function getForm(ctx: ServiceContext, workspaceId: string, slug: string, db?: Sql, lock = false): Promise<StoredForm> {
  const found = isFormSlug(slug) ? await ctx.db.forms.bySlug(workspaceId, slug, db, lock) : undefined;
  if (!found) throw notFound(`Unknown form: ${slug.length > 64 ? `${slug.slice(0, 64)}…` : slug}`);
  return found;
}

/** Creates a form; 400 for an invalid definition, 409 when the slug is taken. */
export async function createForm(ctx: ServiceContext, workspaceId: string, body: unknown): Promise<StoredForm> {
  const def = parseFormDefinition(body);
  const at = new Date(ctx.now()).toISOString();
  const form: StoredForm = { ...def, id: randomUUID(), workspaceId, retiredFields: [], created_at: at, updated_at: at };
  try {
    await ctx.db.forms.insert(form);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Form ${def.slug} already exists`, { form: def.slug, field: "slug" });
    throw error;
  }
  return form;
}

/** Whether the caller may learn how many submissions are in the way (spec 5.4.5: submissions:read). */
export interface SubmissionVisibility {
  revealCount: boolean;
}

/**
 * Replaces a form's definition (PUT). With `revealCount` (submissions:read), refused with 409 when
 * stored submissions would violate the new fields (a new required field, a type change, a removed
 * option, a lower max length), telling how many. Without it, the stored values must stay hidden
 * (spec 5.4.5), so success may not depend on them: a form holding submissions refuses every
 * narrowing change (core/forms.ts narrowedFields, from the definitions alone), whatever the
 * values. Removing a field keeps the values already submitted for it (and remembers its name).
 */
export async function updateForm(ctx: ServiceContext, workspaceId: string, slug: string, body: unknown, vis: SubmissionVisibility): Promise<StoredForm> {
  const input = body && typeof body === "object" && !Array.isArray(body) ? { slug, ...(body as Record<string, unknown>) } : body;
  const def = parseFormDefinition(input);
  if (def.slug !== slug) throw badRequest("slug: renaming a form is not supported (its URL is embedded in sites)", { field: "slug" });
  const submissions = ctx.db.submissions;
  return ctx.sql.transaction(async (tx) => {
    const before = await getForm(ctx, workspaceId, slug, tx, true);
    const stored = await submissions.count(before.id, tx);
    if (stored > 0 && !vis.revealCount) {
      const narrowed = narrowedFields(before.fields, def.fields, before.retiredFields);
      if (narrowed.length > 0) throw narrowingRefused(slug, narrowed);
    }
    if (stored > 0 && vis.revealCount && fieldsToCheck(before.fields, def.fields).length > 0) {
      const rows: ReturnType<typeof storedValues>[] = [];
      let total = { rows: 0, byField: dataRecord<number>() };
      for await (const page of submissions.scan(before.id, SCAN_PAGE, tx)) {
        rows.length = 0;
        for (const s of page) rows.push(storedValues(s.data, s.files));
        const c = countViolations(before.fields, def.fields, rows);
        total = { rows: total.rows + c.rows, byField: mergeCounts(total.byField, c.byField) };
      }
      if (total.rows > 0) throw refusal(slug, total);
    }
    // With no submission stored, nothing can linger under a removed field's name.
    const removed = before.fields.filter((f) => !def.fields.some((n) => n.name === f.name)).map((f) => f.name);
    const retiredFields = stored === 0 ? [] : before.retiredFields && [...new Set([...before.retiredFields, ...removed])].sort();
    const after: StoredForm = { ...before, ...def, retiredFields, updated_at: new Date(ctx.now()).toISOString() };
    await ctx.db.forms.update(after, tx);
    return after;
  });
}

/**
 * Deletes a form. Its stored submissions (personal data) go with it only when the caller may delete
 * submissions (`canDeleteSubmissions`, i.e. submissions:write); otherwise 409. Blobs of uploaded
 * files are removed after commit.
 */
export async function deleteForm(
  ctx: ServiceContext,
  workspaceId: string,
  slug: string,
  opts: SubmissionVisibility & { canDeleteSubmissions: boolean },
): Promise<StoredForm> {
  const submissions = ctx.db.submissions;
  const { form, keys } = await ctx.sql.transaction(async (tx) => {
    const form = await getForm(ctx, workspaceId, slug, tx, true);
    const n = await submissions.count(form.id, tx);
    if (n > 0 && !opts.canDeleteSubmissions) {
      const count = opts.revealCount ? ` (${n === 1 ? "1 submission" : `${n} submissions`})` : "";
      throw conflict(
        `Form ${slug} still holds stored submissions${count}; deleting it would delete them, which needs submissions:write`,
        opts.revealCount ? { form: slug, submissions: n } : { form: slug },
      );
    }
    const keys: string[] = [];
    if (n > 0) {
      for await (const page of submissions.scan(form.id, SCAN_PAGE, tx)) {
        for (const s of page) for (const f of s.files) keys.push(submissionBlobKey(workspaceId, s.id, f.id));
      }
    }
    await ctx.db.forms.remove(form.id, tx);
    return { form, keys };
  });
  await deleteSubmissionBlobs(ctx, keys);
  return form;
}

/** What a browser sent: text values by name and uploaded files. */
export interface SubmitInput {
  values: Record<string, unknown>;
  uploads: Upload[];
}

/**
 * THE submit path (spec 4.1). A filled honeypot is answered like a success with a fresh id, but
 * nothing is stored and nothing fires. An accepted submission is stored (files as blobs) and, after
 * commit, form.submitted is emitted with exactly `{form: {id, slug, name}, formId, submission: {id,
 * _submitted_at}}` (spec 6.2).
 */
export async function submitForm(ctx: ServiceContext, workspaceId: string, slug: string, input: SubmitInput): Promise<{ id: string; stored: boolean }> {
  const form = await getForm(ctx, workspaceId, slug);
  // The same kind of id as a stored submission: a bot cannot tell it was dropped.
  if (trippedHoneypot(form.honeypot, input)) return { id: newRowId(), stored: false };
  const { data, fileFields } = validateSubmission(
    form.fields,
    input.values,
    input.uploads.map((u) => u.field),
  );
  const id = newRowId();
  const uploads = input.uploads.filter((u) => fileFields.has(u.field));
  const uploaded = uploads.reduce((sum, u) => sum + u.bytes.byteLength, 0);
  if (uploaded > 0) await assertUploadFits(ctx, workspaceId, "submissions", uploaded);
  const files: SubmissionFile[] = await storeUploads(ctx, workspaceId, id, uploads);
  const at = new Date(ctx.now()).toISOString();
  const event: ServiceEvent = {
    workspaceId,
    event: "form.submitted",
    data: { form: { id: form.id, slug: form.slug, name: form.name }, formId: form.id, submission: { id, _submitted_at: at } },
  };
  const submission = { id, workspaceId, formId: form.id, data, files, submitted_at: at, updated_at: at };
  try {
    const outbox = ctx.outbox;
    // Durable webhook mode: the event is recorded in the same transaction as the submission; with
    // files, the quota is checked again in it, after them.
    if (outbox || uploaded > 0) {
      await ctx.sql.transaction(async (tx) => {
        await ctx.db.submissions.insert(submission, tx);
        if (uploaded > 0) await assertWithinQuota(ctx, workspaceId, "submissions", tx);
        await outbox?.record(tx, [event]);
      });
    } else await ctx.db.submissions.insert(submission);
  } catch (error) {
    await deleteSubmissionBlobs(ctx, files.map((f) => submissionBlobKey(workspaceId, id, f.id)));
    throw error;
  }
  emitEvents(ctx, [event]);
  return { id, stored: true };
}

function trippedHoneypot(name: string, input: SubmitInput): boolean {
  const v = own(input.values, name);
  const filled = v !== undefined && v !== null && v !== false && (typeof v !== "string" || v.trim() !== "");
  return filled || input.uploads.some((u) => u.field === name);
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = dataRecord(a);
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** The answer without submissions:read: the same for any stored values (no count, no verdict on them). */
function narrowingRefused(slug: string, fields: string[]) {
  return conflict(
    `Cannot change form ${slug}: it holds stored submissions and the change narrows fields ${fields.join(", ")}; without submissions:read such a change is refused whatever the stored values (a caller holding submissions:read can make it when they fit)`,
    { form: slug, fields },
  );
}

function refusal(slug: string, total: { rows: number; byField: Record<string, number> }) {
  const fields = Object.keys(total.byField).sort();
  const named = fields.join(", ");
  const rows = total.rows === 1 ? "1 stored submission" : `${total.rows} stored submissions`;
  return conflict(`Cannot change form ${slug}: ${rows} would violate the new definition (fields: ${named}); edit or delete them first`, {
    form: slug,
    fields,
    submissions: total.rows,
    by_field: total.byField,
  });
}
