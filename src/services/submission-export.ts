/**
 * Exporting a form's submissions (personal data: the caller has checked submissions:read), as
 * CSV for spreadsheets or as JSON in the `{data, meta}` list format. CSV cells that a spreadsheet
 * would run as a formula are defused (docs/forms.md, "Exporting submissions"). Streamed a page at a
 * time: submissions come from a public endpoint, so a whole form must never sit in memory at once.
 */
import type { WholeListMeta } from "../core/lists.js";
import type { SubmissionFile } from "../core/form-values.js";
import { own } from "../core/records.js";
import { submissionView, type StoredSubmission, type SubmissionKey } from "../storage/submissions.js";
import type { ServiceContext } from "./context.js";
import { getForm } from "./forms.js";

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

/**
 * An export being written: the document a page of submissions at a time, so memory stays bounded
 * by one page however many submissions the form holds. Read `chunks` once.
 */
export interface SubmissionExport {
  chunks: AsyncGenerator<string, void, undefined>;
  /** How many submissions the document holds, final once `chunks` has been read to the end. */
  readonly count: number;
}

/**
 * The submissions the export started with, newest first (as listed), a page at a time. Keyset
 * paging bounded by the newest submission at the start: a submission arriving meanwhile neither
 * joins the export nor shifts a page into a duplicate, and a deletion skips nothing else.
 */
async function* pagesOf(ctx: ServiceContext, formId: string, upTo: SubmissionKey | undefined): AsyncGenerator<StoredSubmission[]> {
  if (!upTo) return;
  let after: SubmissionKey | undefined;
  for (;;) {
    const rows = await ctx.db.submissions.keysetPage(formId, { limit: PAGE, upTo, after });
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { submitted_at: last.submitted_at, id: last.id };
  }
}

/** `text` indented by `prefix` after each line break (JSON.stringify never leaves a raw one in a string). */
const indent = (text: string, prefix: string) => text.replaceAll("\n", `\n${prefix}`);

/**
 * The submissions of form `slug` as one document, streamed: CSV text or the `{data, meta}` JSON
 * list, byte for byte what `JSON.stringify(list, null, 2)` gives. An unknown form fails here,
 * before any of the document exists.
 */
export async function exportSubmissions(ctx: ServiceContext, workspaceId: string, slug: string, format: ExportFormat): Promise<SubmissionExport> {
  const form = await getForm(ctx, workspaceId, slug);
  const upTo = await ctx.db.submissions.newestKey(form.id);
  let count = 0;

  async function* json(): AsyncGenerator<string, void, undefined> {
    yield '{\n  "data": [';
    for await (const rows of pagesOf(ctx, form.id, upTo)) {
      let text = "";
      for (const s of rows) text += `${count++ === 0 ? "" : ","}\n    ${indent(JSON.stringify(submissionView(s), null, 2), "    ")}`;
      yield text;
    }
    const meta: WholeListMeta = { total: count };
    yield `${count > 0 ? "\n  " : ""}],\n  "meta": ${indent(JSON.stringify(meta, null, 2), "  ")}\n}\n`;
  }

  async function* csv(): AsyncGenerator<string, void, undefined> {
    // RFC 4180: CRLF line ends, fields with quotes, commas or line breaks quoted and quotes doubled.
    // Loaded here: only an export needs it, not start-up.
    const { stringify } = await import("csv-stringify/sync");
    const records = (cells: string[][]) => stringify(cells, { record_delimiter: "\r\n" });
    // Current fields first, in form order; then names only older submissions still hold. The
    // header comes first, so a first pass over the same submissions keeps only their names.
    const names = form.fields.map((f) => f.name);
    const known = new Set(names);
    for await (const rows of pagesOf(ctx, form.id, upTo)) {
      for (const s of rows) {
        for (const key of [...Object.keys(s.data), ...s.files.map((f) => f.field)]) if (!known.has(key)) (known.add(key), names.push(key));
      }
    }
    yield records([["id", "_submitted_at", "_updated_at", ...names].map(csvCell)]);
    for await (const rows of pagesOf(ctx, form.id, upTo)) {
      count += rows.length;
      yield records(rows.map((s) => [
        csvCell(s.id),
        csvCell(s.submitted_at),
        csvCell(s.updated_at),
        ...names.map((name) => {
          const files = s.files.filter((f: SubmissionFile) => f.field === name);
          return files.length > 0 ? csvCell(files.map((f) => f.filename).join(", ")) : csvCell(own(s.data, name));
        }),
      ]));
    }
  }

  return {
    chunks: format === "json" ? json() : csv(),
    get count() {
      return count;
    },
  };
}
