/**
 * The workspace's end users (spec 2.2 users:*, Identity workspaces only): list, create, change
 * (deactivate with `{active: false}`: their sessions stop at once), delete (sessions deleted).
 * Personal data: never logged; a workspace without Identity answers 404 saying so.
 */
import { getQuery, getRouterParam, type H3Event } from "h3";
import { endUserBodySchema } from "../../core/end-users.js";
import { pageOf } from "../../core/lists.js";
import { createEndUser, deleteEndUser, getEndUser, listEndUsers, updateEndUser } from "../../services/end-users.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { identityDisabled } from "../middleware/auth.js";
import type { TenantWorkspace } from "../middleware/tenant.js";
import { PAGE_SIZES, pageParams, parsePage } from "../../core/pagination.js";
import { endUserSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

const id = (event: H3Event) => getRouterParam(event, "id")!;

function requireIdentity(workspace: TenantWorkspace): void {
  if (!workspace.identity) throw identityDisabled();
}

export const endUserRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/users",
    access: access.grant("users:read"),
    summary: "List end users (?limit=&offset=) → {data: [{id, email, attributes, active, created_at, updated_at}], meta: {total, limit, offset}}",
    query: pageParams(PAGE_SIZES.records),
    response: { schema: endUserSchema, list: "page", description: "End users" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const page = parsePage(getQuery(event), PAGE_SIZES.records);
      const { rows, total } = await listEndUsers(service, workspace.id, page);
      return pageOf(rows, total, page);
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/users",
    access: access.grant("users:write"),
    summary: "Create an end user {email, password, attributes?, active?, email_verified?} (unverified unless email_verified: true)",
    body: { schema: endUserBodySchema.required({ email: true, password: true }) },
    response: { schema: endUserSchema, status: 201, description: "The end user" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const user = await createEndUser(service, workspace.id, await readJsonObject(event, service.options.bodyLimit));
      event.res.status = 201;
      return user;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:read"),
    summary: "One end user",
    response: { schema: endUserSchema, description: "The end user" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      return getEndUser(service, workspace.id, id(event));
    },
  },
  {
    method: "PATCH",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:write"),
    summary: "Change an end user {email?, password?, attributes?, active?, email_verified?}; a new email is unverified unless email_verified: true; active:false or a new password ends their sessions",
    body: { schema: endUserBodySchema },
    response: { schema: endUserSchema, description: "The end user" },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      return updateEndUser(service, workspace.id, id(event), await readJsonObject(event, service.options.bodyLimit));
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:write"),
    summary: "Delete an end user and their sessions",
    response: { status: 204 },
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      await deleteEndUser(service, workspace.id, id(event));
      return new Response(null, { status: 204 });
    },
  },
]);
