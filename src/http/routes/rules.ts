/**
 * Rules (DESIGN §4.2, spec 2.2 rules:*): reusable conditions that gate collections. Validated on
 * save; a rule still named by a collection cannot be deleted (409 naming the collections).
 */
import { getRouterParam, type H3Event } from "h3";
import { listOf } from "../../core/lists.js";
import { ruleSchema } from "../../core/rules.js";
import { createRule, deleteRule, getRule, listRules, updateRule } from "../../services/rules.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { ruleSchemaOut } from "../responses.js";
import { defineRoutes } from "../route.js";

const id = (event: H3Event) => getRouterParam(event, "id")!;

export const ruleRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/rules",
    access: access.grant("rules:read"),
    summary: "List rules → {data: [{id, name, condition, created_at, updated_at}], meta: {total}}",
    response: { schema: ruleSchemaOut, list: "whole", description: "Rules" },
    handler: async (_event, { service, workspace }) => listOf(await listRules(service, workspace.id)),
  },
  {
    method: "POST",
    path: "/api/dashboard/rules",
    access: access.grant("rules:write"),
    summary: "Create a rule {name, condition}",
    body: { schema: ruleSchema },
    response: { schema: ruleSchemaOut, status: 201, description: "The rule" },
    async handler(event, { service, workspace }) {
      const rule = await createRule(service, workspace.id, await readJsonObject(event, service.options.bodyLimit));
      event.res.status = 201;
      return rule;
    },
  },
  {
    method: "GET",
    path: "/api/dashboard/rules/:id",
    access: access.grant("rules:read"),
    summary: "One rule",
    response: { schema: ruleSchemaOut, description: "The rule" },
    handler: (event, { service, workspace }) => getRule(service, workspace.id, id(event)),
  },
  {
    method: "PUT",
    path: "/api/dashboard/rules/:id",
    access: access.grant("rules:write"),
    summary: "Replace a rule's name and condition; a new condition of a rule in use also needs entries:read",
    body: { schema: ruleSchema },
    response: { schema: ruleSchemaOut, description: "The rule" },
    async handler(event, { service, workspace, principal }) {
      return updateRule(service, workspace.id, id(event), await readJsonObject(event, service.options.bodyLimit), principal!);
    },
  },
  {
    method: "DELETE",
    path: "/api/dashboard/rules/:id",
    access: access.grant("rules:write"),
    summary: "Delete a rule; 409 naming the collections still gated by it",
    response: { status: 204 },
    async handler(event, { service, workspace }) {
      await deleteRule(service, workspace.id, id(event));
      return new Response(null, { status: 204 });
    },
  },
]);
