/**
 * Read tools over the rest of the workspace (DESIGN §4.3): list_media (media:read), list_forms
 * (forms:read) and list_submissions (submissions:read, which nothing else implies: submitted
 * values are personal data, spec 5.4.4).
 */
import { z } from "zod";
import { listOf, pageOf } from "../../core/lists.js";
import { formView, listForms } from "../../services/forms.js";
import { listMedia } from "../../services/media.js";
import { listSubmissions, submissionView } from "../../services/submissions.js";
import { defineTool } from "../tool.js";

const MAX_PAGE = 100;
const DEFAULT_PAGE = 50;

const limitArg = z.number().int().min(1).max(MAX_PAGE).optional().describe(`Page size, 1-${MAX_PAGE} (default ${DEFAULT_PAGE}).`);
const offsetArg = z.number().int().min(0).max(999_999_999).optional().describe("How many records to skip (default 0).");

export const libraryTools = [
  defineTool({
    name: "list_media",
    grant: "media:read",
    summary: "One page of media assets, newest first",
    description:
      "Lists the workspace's media assets (uploaded files), newest first: {data: [{id, filename, content_type, size, " +
      "width?, height?, created_at, url}], meta: {total, limit, offset}}. url is the public path of the bytes on the " +
      "workspace host; the id is what a media field of an item stores.",
    input: z.strictObject({ limit: limitArg, offset: offsetArg }),
    annotations: { title: "List media", readOnlyHint: true, openWorldHint: false },
    run: async ({ limit, offset }, ctx) => listMedia(ctx.service, ctx.workspaceId, { limit: limit ?? DEFAULT_PAGE, offset: offset ?? 0 }),
  }),
  defineTool({
    name: "list_forms",
    grant: "forms:read",
    summary: "Every form with its fields",
    description:
      "Lists the workspace's forms with their definitions: {data: [{id, slug, name, fields, honeypot, created_at, updated_at}], meta: {total}}. " +
      "Visitors submit to /api/v1/forms/{slug}/submit. Submitted values are not included (see list_submissions).",
    input: z.strictObject({}),
    annotations: { title: "List forms", readOnlyHint: true, openWorldHint: false },
    run: async (_args, ctx) => listOf((await listForms(ctx.service, ctx.workspaceId)).map(formView)),
  }),
  defineTool({
    name: "list_submissions",
    grant: "submissions:read",
    summary: "One page of a form's submissions, newest first (personal data)",
    description:
      "Lists the submissions of one form, newest first: {data: [{id, form_id, data, files, _submitted_at, _updated_at}], " +
      "meta: {total, limit, offset}}; data holds the submitted values by field name, files the uploaded files. " +
      "Submitted values are personal data: use them only for the task at hand.",
    input: z.strictObject({
      form: z.string().min(1).describe("The form's slug, as returned by list_forms."),
      limit: limitArg,
      offset: offsetArg,
    }),
    annotations: { title: "List submissions", readOnlyHint: true, openWorldHint: false },
    async run({ form, limit, offset }, ctx) {
      const page = await listSubmissions(ctx.service, ctx.workspaceId, form, { limit: limit ?? DEFAULT_PAGE, offset: offset ?? 0 });
      return pageOf(page.rows.map(submissionView), page.total, page);
    },
  }),
];
