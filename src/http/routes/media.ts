/**
 * The media library: management under /api/dashboard/media (media:read / media:write) and public
 * delivery under /api/v1/media/{id} (spec 4.1, 5.3: no auth for any asset, a key sent is ignored;
 * spec 1.3: no CORS headers).
 */
import { getQuery, getRouterParam, type H3Event } from "h3";
import { z } from "zod";
import { badRequest, conflict, payloadTooLarge } from "../../core/errors.js";
import { deleteMedia, getMedia, getMediaMeta, isMediaInUse, listMedia, MEDIA_SEARCH_MAX, readMedia, uploadMedia } from "../../services/media.js";
import { access } from "../access.js";
import { readBytes } from "../body.js";
import { readFormData } from "../form-data.js";
import { PAGE_SIZES, pageParams, parsePage } from "../../core/pagination.js";
import { mediaMetaSchema, mediaSchema } from "../responses.js";
import { defineRoutes } from "../route.js";
import { mediaResponse } from "./media-delivery.js";

/** Room for multipart boundaries and part headers on top of the upload limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

const id = (event: H3Event) => getRouterParam(event, "id")!;

export const mediaRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/media",
    access: access.grant("media:read"),
    summary: "List media assets, newest first (?limit=1-100, default 50; ?offset=; ?search= filename, case-insensitive)",
    query: pageParams(PAGE_SIZES.files).extend({
      search: z.string().optional().describe(`Keeps assets whose filename holds this text, ignoring case (at most ${MEDIA_SEARCH_MAX} characters).`),
    }),
    response: { schema: mediaSchema, list: "page", description: "Media assets, newest first (limit default 50, max 100)" },
    handler: (event, ctx) => {
      const query = getQuery(event);
      return listMedia(ctx.service, ctx.workspace.id, { ...parsePage(query, PAGE_SIZES.files), search: onceParam(query.search, "search") });
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/media/:id",
    access: access.grant("media:read"),
    summary: "One asset's record",
    response: { schema: mediaSchema, description: "The asset's record" },
    handler: (event, ctx) => getMedia(ctx.service, ctx.workspace.id, id(event)),
  },
  {
    method: "POST",
    path: "/api/dashboard/media",
    access: access.grant("media:write"),
    summary: "Upload an asset: raw body with ?filename= and Content-Type, or multipart field `file`",
    query: [{ name: "filename", description: "The file name of a raw-body upload (not with multipart)." }],
    body: { contentType: "application/octet-stream", description: "The file's bytes with its Content-Type; or multipart/form-data with a field `file`" },
    response: { schema: mediaSchema, status: 201, description: "The asset's metadata" },
    async handler(event, ctx) {
      const upload = await readUpload(event, ctx.service.options.uploadLimit);
      const record = await uploadMedia(ctx.service, ctx.workspace.id, upload);
      event.res.status = 201;
      return record;
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/media/:id",
    access: access.grant("media:write"),
    summary: "Delete an asset and its bytes; 409 {error, used_by} when entries use it (used_by null for a narrowed key), unless ?force=true",
    query: [{ name: "force", description: "`true` (or `1`) deletes an asset that entries use; they keep its id, which no longer resolves." }],
    response: { status: 204 },
    async handler(event, ctx) {
      try {
        await deleteMedia(ctx.service, ctx.workspace.id, id(event), { force: readForce(onceParam(getQuery(event).force, "force")), actor: ctx.principal });
      } catch (error) {
        if (isMediaInUse(error)) throw conflict(`${error.message}; send ?force=true to delete it anyway`, error.details);
        throw error;
      }
      event.res.status = 204;
      return null;
    },
  },
  {
    method: "GET",
    path: "/api/v1/media/:id",
    access: access.public,
    summary: "An asset's bytes (ETag, Range, immutable caching, nosniff; no CORS)",
    response: { contentType: "application/octet-stream", description: "The bytes, with the asset's Content-Type; 206 for a Range request" },
    async handler(event, ctx) {
      const { record, bytes } = await readMedia(ctx.service, ctx.workspace.id, id(event));
      return mediaResponse(event.req, record, bytes);
    },
  },
  {
    method: "GET",
    path: "/api/v1/media/:id/meta",
    access: access.public,
    summary: "An asset's metadata: {id, filename, content_type, size, created_at, width?, height?}",
    response: { schema: mediaMetaSchema, description: "The asset's public metadata" },
    handler: (event, ctx) => getMediaMeta(ctx.service, ctx.workspace.id, id(event)),
  },
]);

/** A query parameter given at most once (h3 gives an array for a repeated one). */
function onceParam(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw badRequest(`${name}: given more than once`, { parameter: name });
  return value;
}

/** `?force=true|1` forces a delete, `false|0` or absent does not; anything else is a mistake. */
function readForce(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw badRequest("force: expected true or false", { parameter: "force" });
}

/**
 * The uploaded file: multipart/form-data field `file` (parsed by the platform's FormData), or the
 * raw body named by `?filename=`. The body is counted as it streams, never trusted from
 * Content-Length. Name and type are settled by services/media.ts `uploadMedia`.
 */
async function readUpload(event: H3Event, limit: number): Promise<{ filename: string; contentType: string | undefined; bytes: Uint8Array }> {
  const header = event.req.headers.get("content-type") ?? "";
  const queryName = getQuery(event).filename;
  if (queryName !== undefined && typeof queryName !== "string") throw badRequest("filename must be given once");
  let name: string | undefined = queryName;
  let type: string | undefined;
  let bytes: Uint8Array;
  if (/^multipart\/form-data\b/i.test(header)) {
    const form = await readFormData(event, limit + MULTIPART_OVERHEAD);
    const file = form.get("file");
    if (!file || typeof file === "string") throw badRequest("Multipart upload needs a file in the field named \"file\"");
    if (file.size > limit) throw payloadTooLarge(limit);
    bytes = new Uint8Array(await file.arrayBuffer());
    name ??= file.name;
    type = file.type;
  } else {
    if (!name) throw badRequest("Name the upload with ?filename=<name> (or send multipart/form-data with a field \"file\")");
    bytes = await readBytes(event, limit);
    type = header;
  }
  return { filename: name ?? "", contentType: type, bytes };
}
