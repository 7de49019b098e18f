/**
 * Stored form submissions (table submissions): values as JSON, uploaded files listed as JSON with
 * their bytes in the blob store under {@link submissionBlobKey}. Personal data (spec 2.2): read
 * only behind submissions:read, never logged, never in events.
 *
 * @example
 * const page = await ctx.db.submissions.list(form.id, { limit: 20, offset: 0 });
 */
import type { SubmissionFile } from "../core/form-values.js";
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";
import { parseArrayColumn, parseObjectColumn } from "./json-column.js";

/** One stored submission. */
export interface StoredSubmission {
  id: string;
  workspaceId: string;
  formId: string;
  data: Record<string, unknown>;
  files: SubmissionFile[];
  submitted_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  workspace_id: string;
  form_id: string;
  data: string;
  files: string;
  submitted_at: string;
  updated_at: string;
}

const COLUMNS = "id, workspace_id, form_id, data, files, submitted_at, updated_at";

/** A submission's place in the newest-first order (submitted_at, then id): a keyset cursor. */
export interface SubmissionKey {
  submitted_at: string;
  id: string;
}

/** Where the bytes of one uploaded file live in ctx.blobs. */
export function submissionBlobKey(workspaceId: string, submissionId: string, fileId: string): string {
  return `submissions:${workspaceId}:${submissionId}:${fileId}`;
}

/** The JSON view of a submission (submissions:read). */
export function submissionView(s: StoredSubmission) {
  return { id: s.id, form_id: s.formId, data: s.data, files: s.files, _submitted_at: s.submitted_at, _updated_at: s.updated_at };
}

/** Repository factory; use through `ctx.db.submissions`. */
export function createSubmissionRepo(ctx: StorageContext) {
  return {
    async insert(s: StoredSubmission, db: Sql = ctx.sql): Promise<void> {
      await db.run("INSERT INTO submissions (id, workspace_id, form_id, data, files, submitted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
        s.id,
        s.workspaceId,
        s.formId,
        JSON.stringify(s.data),
        JSON.stringify(s.files),
        s.submitted_at,
        s.updated_at,
      ]);
    },

    async get(formId: string, id: string, db: Sql = ctx.sql): Promise<StoredSubmission | undefined> {
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM submissions WHERE form_id = ? AND id = ?`, [formId, id]);
      return row && toSubmission(row);
    },

    /** Newest first. */
    async list(formId: string, page: { limit: number; offset: number }): Promise<{ rows: StoredSubmission[]; total: number }> {
      const [rows, total] = await Promise.all([
        ctx.sql.all<Row>(`SELECT ${COLUMNS} FROM submissions WHERE form_id = ? ORDER BY submitted_at DESC, id DESC LIMIT ? OFFSET ?`, [
          formId,
          page.limit,
          page.offset,
        ]),
        this.count(formId),
      ]);
      return { rows: rows.map(toSubmission), total };
    },

    /** The newest submission's key, where a keyset read that new arrivals must not join starts. */
    async newestKey(formId: string, db: Sql = ctx.sql): Promise<SubmissionKey | undefined> {
      return db.get<SubmissionKey>("SELECT submitted_at, id FROM submissions WHERE form_id = ? ORDER BY submitted_at DESC, id DESC LIMIT 1", [formId]);
    },

    /**
     * Up to `limit` submissions newest first (keyset paging): only those at or before `upTo` and
     * strictly after the cursor `after` (the last row of the previous page). Unlike an offset, a
     * row arriving or deleted meanwhile never shifts a page.
     */
    async keysetPage(formId: string, page: { limit: number; upTo: SubmissionKey; after?: SubmissionKey }, db: Sql = ctx.sql): Promise<StoredSubmission[]> {
      const older = "(submitted_at < ? OR (submitted_at = ? AND id < ?))";
      const atOrOlder = "(submitted_at < ? OR (submitted_at = ? AND id <= ?))";
      const { upTo, after } = page;
      const rows = await db.all<Row>(
        `SELECT ${COLUMNS} FROM submissions WHERE form_id = ? AND ${atOrOlder}${after ? ` AND ${older}` : ""} ORDER BY submitted_at DESC, id DESC LIMIT ?`,
        [formId, upTo.submitted_at, upTo.submitted_at, upTo.id, ...(after ? [after.submitted_at, after.submitted_at, after.id] : []), page.limit],
      );
      return rows.map(toSubmission);
    },

    async count(formId: string, db: Sql = ctx.sql): Promise<number> {
      const row = await db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM submissions WHERE form_id = ?", [formId]);
      return Number(row?.n ?? 0);
    },

    /** Every submission of a form, a page at a time in a stable order (keyset on id). */
    async *scan(formId: string, pageSize: number, db: Sql = ctx.sql): AsyncGenerator<StoredSubmission[]> {
      let after = "";
      for (;;) {
        const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM submissions WHERE form_id = ? AND id > ? ORDER BY id LIMIT ?`, [formId, after, pageSize]);
        if (rows.length === 0) return;
        yield rows.map(toSubmission);
        if (rows.length < pageSize) return;
        after = rows[rows.length - 1]!.id;
      }
    },

    async update(s: StoredSubmission, db: Sql = ctx.sql): Promise<void> {
      await db.run("UPDATE submissions SET data = ?, files = ?, updated_at = ? WHERE id = ?", [JSON.stringify(s.data), JSON.stringify(s.files), s.updated_at, s.id]);
    },

    async remove(id: string, db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM submissions WHERE id = ?", [id]);
    },
  };
}

function toSubmission(row: Row): StoredSubmission {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    formId: row.form_id,
    data: parseObjectColumn(row.data),
    files: parseArrayColumn<SubmissionFile>(row.files),
    submitted_at: row.submitted_at,
    updated_at: row.updated_at,
  };
}
