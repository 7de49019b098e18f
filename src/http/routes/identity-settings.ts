/**
 * Identity settings (spec 5.5: identity settings are owner-only and cannot be granted): switch the
 * workspace's end-user accounts on or off, and whether visitors may sign themselves up. Switching
 * off refuses account sessions at once (the authenticator checks the flag on every request);
 * sessions and users are kept for switching on. Self sign-up is off until the owner turns it on:
 * a sign-up proves nothing about who signs up (docs/identity.md).
 */
import { badRequest } from "../../core/errors.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { defineRoutes } from "../route.js";

const FIELDS = ["enabled", "self_signup"];

export const identitySettingsRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Identity settings → {enabled, self_signup}",
    response: { description: "{enabled, self_signup}" },
    handler: (_event, { workspace }) => ({ enabled: workspace.identity, self_signup: workspace.selfSignup }),
  },
  {
    method: "PUT",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Switch Identity (end-user accounts) and self sign-up on or off: {enabled?, self_signup?}",
    body: { description: "{enabled?, self_signup?}" },
    response: { description: "{enabled, self_signup}" },
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const extra = Object.keys(body).find((k) => !FIELDS.includes(k));
      if (extra) throw badRequest(`Unknown field ${JSON.stringify(extra)}; identity settings take {enabled, self_signup}`);
      if (body.enabled === undefined && body.self_signup === undefined) throw badRequest("Give enabled and/or self_signup (true or false)");
      for (const k of FIELDS) if (body[k] !== undefined && typeof body[k] !== "boolean") throw badRequest(`${k} must be true or false`, { field: k });
      const enabled = (body.enabled as boolean | undefined) ?? workspace.identity;
      const selfSignup = (body.self_signup as boolean | undefined) ?? workspace.selfSignup;
      if (enabled !== workspace.identity) await service.workspaces.setIdentity(workspace.id, enabled);
      if (selfSignup !== workspace.selfSignup) await service.workspaces.setSelfSignup(workspace.id, selfSignup);
      return { enabled, self_signup: selfSignup };
    },
  },
]);
