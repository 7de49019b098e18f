/**
 * The workspace's end users (spec 2.2 users:*, Identity workspaces only): list, create, change
 * (deactivate with `{active: false}`: their sessions stop at once), delete (sessions deleted).
 * Personal data: never logged; a workspace without Identity answers 404 saying so.
 */
import { getQuery, getRouterParam, type H3Event } from "h3";
import { parseAttributes } from "../../core/attributes.js";
import { normalizeEmail } from "../../core/email.js";
import { badRequest, notFound } from "../../core/errors.js";
import { validateNewPassword } from "../../core/passwords.js";
import { pageOf } from "../../core/lists.js";
import { repo } from "../../storage/context.js";
import { assertMayAdmitAccount } from "../../services/gates.js";
import { createEndUserRepo, type EndUserChange } from "../../storage/end-users.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { identityDisabled } from "../middleware/auth.js";
import type { TenantWorkspace } from "../middleware/tenant.js";
import { PAGE_SIZES, parsePage } from "../../core/pagination.js";
import { defineRoutes } from "../route.js";

const FIELDS = ["email", "password", "attributes", "active", "email_verified"];
const id = (event: H3Event) => getRouterParam(event, "id")!;
const unknownUser = () => notFound("Unknown end user");

function requireIdentity(workspace: TenantWorkspace): void {
  if (!workspace.identity) throw identityDisabled();
}

/** Validates a create or change body; each error names its field. */
function parseChange(body: Record<string, unknown>): EndUserChange {
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw badRequest(`Unknown field ${JSON.stringify(key)}; end users take ${FIELDS.join(", ")}`, { field: key });
  const change: EndUserChange = {};
  if (body.email !== undefined) change.email = normalizeEmail(body.email);
  if (body.password !== undefined) {
    validateNewPassword(body.password);
    change.password = body.password;
  }
  if (body.attributes !== undefined) change.attributes = parseAttributes(body.attributes);
  if (body.active !== undefined) {
    if (typeof body.active !== "boolean") throw badRequest("active must be true or false", { field: "active" });
    change.active = body.active;
  }
  if (body.email_verified !== undefined) {
    if (typeof body.email_verified !== "boolean") throw badRequest("email_verified must be true or false", { field: "email_verified" });
    change.emailVerified = body.email_verified;
  }
  return change;
}

export const endUserRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/users",
    access: access.grant("users:read"),
    summary: "List end users (?limit=&offset=) → {data: [{id, email, attributes, active, created_at, updated_at}], meta: {total, limit, offset}}",
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const page = parsePage(getQuery(event), PAGE_SIZES.records);
      const { rows, total } = await repo(service, createEndUserRepo).list(workspace.id, page);
      return pageOf(rows, total, page);
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/users",
    access: access.grant("users:write"),
    summary: "Create an end user {email, password, attributes?, active?, email_verified?} (unverified unless email_verified: true); while a collection is gated also needs entries:read",
    async handler(event, { service, workspace, principal }) {
      requireIdentity(workspace);
      const change = parseChange(await readJsonObject(event, service.options.bodyLimit));
      if (change.email === undefined) throw badRequest("email is required", { field: "email" });
      if (change.password === undefined) throw badRequest("password is required", { field: "password" });
      await assertMayAdmitAccount(service, workspace.id, principal!, change, true);
      const user = await repo(service, createEndUserRepo).create(workspace.id, {
        email: change.email,
        password: change.password,
        attributes: change.attributes ?? {},
        active: change.active ?? true,
        emailVerified: change.emailVerified ?? false,
      });
      event.res.status = 201;
      return user;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:read"),
    summary: "One end user",
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      const user = await repo(service, createEndUserRepo).get(workspace.id, id(event));
      if (!user) throw unknownUser();
      return user;
    },
  },
  {
    method: "PATCH",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:write"),
    summary: "Change an end user {email?, password?, attributes?, active?, email_verified?}; a new email is unverified unless email_verified: true; active:false or a new password ends their sessions; while a collection is gated, a change a rule or sign-in can use also needs entries:read",
    async handler(event, { service, workspace, principal }) {
      requireIdentity(workspace);
      const change = parseChange(await readJsonObject(event, service.options.bodyLimit));
      await assertMayAdmitAccount(service, workspace.id, principal!, change, false);
      const user = await repo(service, createEndUserRepo).update(workspace.id, id(event), change);
      if (!user) throw unknownUser();
      return user;
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/users/:id",
    access: access.grant("users:write"),
    summary: "Delete an end user and their sessions",
    async handler(event, { service, workspace }) {
      requireIdentity(workspace);
      if (!(await repo(service, createEndUserRepo).remove(workspace.id, id(event)))) throw unknownUser();
      return new Response(null, { status: 204 });
    },
  },
]);
