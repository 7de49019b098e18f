/**
 * Static site management (spec 2.2 `sites`, DESIGN §4.2): deploy a tar.gz, list deploys with the
 * live one marked, roll back. Serving the live site is {@link siteFallback}, registered by the app
 * after every other route.
 */
import { getQuery } from "h3";
import { fieldsOf, parseWithSchema } from "../../core/body-schema.js";
import { badRequest, unsupportedMediaType } from "../../core/errors.js";
import { siteRollbackSchema } from "../../core/workspace-settings.js";
import { deploySite, listDeploys, rollbackSite } from "../../services/sites.js";
import { access } from "../access.js";
import { readJson, streamBody } from "../body.js";
import { refusedBodyHeaders } from "../errors.js";
import { PAGE_SIZES, pageParams, parsePage } from "../../core/pagination.js";
import { deploySchema, liveDeploySchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export { siteFallback } from "./site-serve.js";

const ARCHIVE_TYPES = /^application\/(gzip|x-gzip|x-tar|x-gtar|x-compressed-tar|octet-stream)\s*(;|$)/i;

export const siteRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/site/deploys",
    access: access.grant("sites:read"),
    summary: "List site deploys, newest first, the live one with live: true",
    query: pageParams(PAGE_SIZES.files),
    response: { schema: deploySchema, list: "page", description: "Deploys, newest first; the live one has live: true" },
    handler: (event, ctx) => listDeploys(ctx.service, ctx.workspace.id, parsePage(getQuery(event), PAGE_SIZES.files)),
  },
  {
    method: "POST",
    path: "/api/dashboard/site/deploys",
    access: access.grant("sites:write"),
    summary: "Deploy a tar.gz of a built site and make it live (atomic switch)",
    body: { contentType: "application/gzip", description: "A tar.gz of the built site" },
    response: { schema: liveDeploySchema, status: 201, description: "The deploy, now live" },
    async handler(event, ctx) {
      const type = event.req.headers.get("content-type");
      if (type && !ARCHIVE_TYPES.test(type)) {
        throw unsupportedMediaType("Send the site as a tar.gz body with Content-Type: application/gzip");
      }
      const headers = event.req.headers;
      // Headers only: touching event.req.body would start reading the body before the lease.
      const empty = headers.get("content-length") === "0" || (!headers.has("content-length") && !headers.has("transfer-encoding"));
      if (empty) throw badRequest("Request body is required (a tar.gz of the built site)");
      // Read as it arrives, after the deploy took its lease and slot (services/sites.ts).
      const deploy = await deploySite(ctx.service, ctx.workspace.id, streamBody(event, ctx.service.options.uploadLimit));
      // Reading stops at the archive's end: padding after it stays unread, so the socket cannot
      // serve another request; it closes lingering, like a refusal, so the client reads the 201.
      const close = refusedBodyHeaders(event);
      if (close) event.res.headers.set("connection", close.connection);
      event.res.status = 201;
      return deploy;
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/site/rollback",
    access: access.grant("sites:write"),
    summary: "Make the previous deploy live again, or the one named by {deploy_id}",
    body: { optional: true, schema: siteRollbackSchema },
    response: { schema: liveDeploySchema, description: "The deploy now live" },
    async handler(event, ctx) {
      const body = (await readJson(event, ctx.service.options.bodyLimit)) ?? {};
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest("Request body must be a JSON object");
      const unknown = Object.keys(body).find((key) => !fieldsOf(siteRollbackSchema).includes(key));
      if (unknown !== undefined) throw badRequest(`Unknown field ${JSON.stringify(unknown)}; rollback takes deploy_id`);
      const { deploy_id } = parseWithSchema(siteRollbackSchema, body, { named: true });
      return rollbackSite(ctx.service, ctx.workspace.id, deploy_id ?? undefined);
    },
  },
]);
