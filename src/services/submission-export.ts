/**
 * Exporting a form's submissions (personal data: the caller has checked submissions:read), as
 * CSV for spreadsheets or as JSON in the `{data, meta}` list format. CSV cells that a spreadsheet
 * would run as a formula are defused (docs/forms.md, "Exporting submissions").
 */
import { listOf, type ListResponse } from "../core/lists.js";
import type { SubmissionFile } from "../core/form-values.js";
import { own } from "../core/records.js";
import { submissionView, type StoredSubmission } from "../storage/submissions.js";
import type { ServiceContext } from "./context.js";
import { getForm } from "./forms.js";
import { listSubmissions } from "./submissions.js";

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const PAGE = 200;

/** Characters that make Excel, LibreOffice and Google Sheets read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell made safe for spreadsheets (OWASP "CSV injection"): text starting with = + - @ tab or
 * carriage return gets a leading `'`, so it shows as text instead of running. Numbers from a
 * number field stay as they are: `-3` is a value, never a formula.
 *
 * @example
 * csvCell("=HYPERLINK(\"http://x\")"); // "'=HYPERLINK(\"http://x\")"
 * csvCell(-3); // "-3"
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const text = typeof value === "string" ? value : typeof value === "boolean" ? String(value) : JSON.stringify(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Every submission of a form, oldest pages last as listed (newest first), read page by page. */
async function allSubmissions(ctx: ServiceContext, workspaceId: string, slug: string): Promise<StoredSubmission[]> {
  const rows: StoredSubmission[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await listSubmissions(ctx, workspaceId, slug, { limit: PAGE, offset });
    rows.push(...page.rows);
    if (page.rows.length < PAGE || rows.length >= page.total) return rows;
  }
}

/** The submissions of form `slug` as one document: CSV text or the `{data, meta}` JSON list. */
export async function exportSubmissions(
  ctx: ServiceContext,
  workspaceId: string,
  slug: string,
  format: ExportFormat,
): Promise<{ count: number; content: string }> {
  const form = await getForm(ctx, workspaceId, slug);
  const rows = await allSubmissions(ctx, workspaceId, slug);
  if (format === "json") {
    const list: ListResponse<ReturnType<typeof submissionView>> = listOf(rows.map(submissionView));
    return { count: rows.length, content: JSON.stringify(list, null, 2) + "\n" };
  }
  // Current fields first, in form order; then names only older submissions still hold.
  const names = form.fields.map((f) => f.name);
  for (const s of rows) {
    for (const key of [...Object.keys(s.data), ...s.files.map((f) => f.field)]) if (!names.includes(key)) names.push(key);
  }
  const header = ["id", "_submitted_at", "_updated_at", ...names];
  const body = rows.map((s) => [
    csvCell(s.id),
    csvCell(s.submitted_at),
    csvCell(s.updated_at),
    ...names.map((name) => {
      const files = s.files.filter((f: SubmissionFile) => f.field === name);
      return files.length > 0 ? csvCell(files.map((f) => f.filename).join(", ")) : csvCell(own(s.data, name));
    }),
  ]);
  // RFC 4180: CRLF line ends, fields with quotes, commas or line breaks quoted and quotes doubled.
  // Loaded here: only an export needs it, not start-up.
  const { stringify } = await import("csv-stringify/sync");
  return { count: rows.length, content: stringify([header.map(csvCell), ...body], { record_delimiter: "\r\n" }) };
}
