/**
 * Form submissions in the dashboard (spec 2.2, 5.4.4): personal data behind submissions:read /
 * submissions:write only; forms:* never reaches these routes. Uploaded files are listed with each
 * submission and downloaded as attachments.
 */
import { getQuery, getRouterParam, type H3Event } from "h3";
import { badRequest } from "../../core/errors.js";
import { contentDisposition } from "../../core/filenames.js";
import { pageOf } from "../../core/lists.js";
import { EXPORT_FORMATS, exportSubmissions, type ExportFormat } from "../../services/submission-export.js";
import { deleteSubmission, getSubmission, getSubmissionFile, listSubmissions, patchSubmission, submissionView } from "../../services/submissions.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { PAGE_SIZES, pageParams, parsePage } from "../../core/pagination.js";
import { submissionSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

const param = (event: H3Event, name: string) => getRouterParam(event, name)!;
const BASE = "/api/dashboard/forms/:slug/submissions";

export const submissionRoutes = defineRoutes([
  {
    method: "GET",
    path: BASE,
    access: access.grant("submissions:read"),
    summary: "List a form's submissions, newest first (?limit=&offset=) → {data, meta: {total, limit, offset}}",
    query: pageParams(PAGE_SIZES.records),
    response: { schema: submissionSchema, list: "page", description: "Submissions, newest first" },
    async handler(event, { service, workspace }) {
      const page = await listSubmissions(service, workspace.id, param(event, "slug"), parsePage(getQuery(event), PAGE_SIZES.records));
      return pageOf(page.rows.map(submissionView), page.total, page);
    },
  },
  {
    method: "GET",
    path: `${BASE}/export`,
    access: access.grant("submissions:read"),
    summary: "Export every submission (?format=csv|json, default csv) as the attachment <slug>-submissions.csv|json; CSV formulas defused",
    query: [{ name: "format", description: "csv (RFC 4180, one column per field, cells a spreadsheet would run defused) or json ({data, meta: {total}}); default csv" }],
    response: { contentType: "text/csv", description: "The export, as an attachment (JSON when format=json)" },
    async handler(event, { service, workspace }) {
      const slug = param(event, "slug");
      const format = readFormat(getQuery(event).format);
      const { chunks } = await exportSubmissions(service, workspace.id, slug, format);
      // Personal data: a download, never cached on the way. Streamed: the document is produced a
      // page at a time as the client reads it.
      return new Response(byteStream(chunks), {
        headers: {
          "content-type": format === "csv" ? "text/csv; charset=utf-8; header=present" : "application/json; charset=utf-8",
          "content-disposition": contentDisposition("attachment", `${slug}-submissions.${format}`),
          "x-content-type-options": "nosniff",
          "cache-control": "private, no-store",
        },
      });
    },
  },
  {
    method: "GET",
    path: `${BASE}/:id`,
    access: access.grant("submissions:read"),
    summary: "One submission {id, form_id, data, files, _submitted_at, _updated_at}",
    response: { schema: submissionSchema, description: "The submission" },
    handler: async (event, { service, workspace }) =>
      submissionView(await getSubmission(service, workspace.id, param(event, "slug"), param(event, "id"))),
  },
  {
    method: "PATCH",
    path: `${BASE}/:id`,
    access: access.grant("submissions:write"),
    summary: "Edit submitted values {field: value | null}; null on a file field deletes the file",
    body: { description: "{field: value | null}" },
    response: { schema: submissionSchema, description: "The submission" },
    async handler(event, { service, workspace }) {
      const patch = await readJsonObject(event, service.options.bodyLimit);
      return submissionView(await patchSubmission(service, workspace.id, param(event, "slug"), param(event, "id"), patch));
    },
  },
  {
    method: "DELETE",
    path: `${BASE}/:id`,
    access: access.grant("submissions:write"),
    summary: "Delete a submission and its uploaded files",
    response: { status: 204 },
    async handler(event, { service, workspace }) {
      await deleteSubmission(service, workspace.id, param(event, "slug"), param(event, "id"));
      return new Response(null, { status: 204 });
    },
  },
  {
    method: "GET",
    path: `${BASE}/:id/files/:fileId`,
    access: access.grant("submissions:read"),
    summary: "Download one uploaded file (attachment)",
    response: { contentType: "application/octet-stream", description: "The file, as an attachment" },
    async handler(event, { service, workspace }) {
      const { file, bytes } = await getSubmissionFile(service, workspace.id, param(event, "slug"), param(event, "id"), param(event, "fileId"));
      // Visitor-supplied bytes: always a download, never rendered or sniffed.
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: {
          "content-type": file.content_type,
          "content-length": String(bytes.byteLength),
          "content-disposition": contentDisposition("attachment", file.filename),
          "x-content-type-options": "nosniff",
          "cache-control": "private, no-store",
        },
      });
    },
  },
]);

/**
 * Text chunks as the bytes of a response body, produced only as the client reads (pull), so a slow
 * download holds one page, not the whole document; a client that goes away stops the producer.
 */
function byteStream(chunks: AsyncGenerator<string, void, undefined>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** `?format=`: csv (the default) or json; anything else is a 400 naming the parameter. */
function readFormat(value: unknown): ExportFormat {
  if (value === undefined || value === "") return "csv";
  if (typeof value === "string" && (EXPORT_FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw badRequest(`format: expected ${EXPORT_FORMATS.join(" or ")}`, { field: "format" });
}
