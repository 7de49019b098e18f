/**
 * Members and owners (the dashboard users of spec 2.3 and 5.5; DESIGN §4.2): owner only. Role
 * owner or member and a member's grants; the last owner can be neither removed nor demoted.
 * Changes reach the person at their next token refresh (spec 3); removal ends their sessions at once.
 */
import { getRouterParam } from "h3";
import { fieldsOf } from "../../core/body-schema.js";
import { listOf } from "../../core/lists.js";
import { memberCreateSchema, memberUpdateSchema } from "../../core/members.js";
import { createMember, getMember, listMembers, removeMember, updateMember } from "../../services/members.js";
import { access } from "../access.js";
import { assertKnownFields, readJsonObject } from "../body.js";
import { memberSchema, removedMemberSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export const memberRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/members",
    access: access.owner,
    summary: "List members and owners with role and grants → {data, meta: {total}}",
    response: { schema: memberSchema, list: "whole", description: "Members and owners with role and grants" },
    async handler(_event, { service, workspace }) {
      return listOf(await listMembers(service, workspace.id));
    },
  },
  {
    method: "POST",
    path: "/api/dashboard/members",
    access: access.owner,
    summary: "Create a member or owner {email, password, role, grants}",
    body: { schema: memberCreateSchema },
    response: { schema: memberSchema, status: 201, description: "The member" },
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, fieldsOf(memberCreateSchema), "POST /api/dashboard/members");
      const member = await createMember(service, workspace.id, { email: body.email, password: body.password, role: body.role, grants: body.grants });
      event.res.status = 201;
      return member;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/members/:id",
    access: access.owner,
    summary: "One member or owner",
    response: { schema: memberSchema, description: "The member" },
    async handler(event, { service, workspace }) {
      return getMember(service, workspace.id, getRouterParam(event, "id")!);
    },
  },
  {
    method: "PATCH",
    path: "/api/dashboard/members/:id",
    access: access.owner,
    summary: "Change {role?, grants?}; effective at the person's next refresh",
    body: { schema: memberUpdateSchema },
    response: { schema: memberSchema, description: "The member" },
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      assertKnownFields(body, fieldsOf(memberUpdateSchema), "PATCH /api/dashboard/members/{id}");
      return updateMember(service, workspace.id, getRouterParam(event, "id")!, { role: body.role, grants: body.grants });
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/members/:id",
    access: access.owner,
    summary: "Remove a member or owner and end their sessions",
    response: { schema: removedMemberSchema, description: "The removed member" },
    async handler(event, { service, workspace }) {
      return removeMember(service, workspace.id, getRouterParam(event, "id")!);
    },
  },
]);
