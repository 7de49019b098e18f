/**
 * Identity settings (spec 5.5: identity settings are owner-only and cannot be granted): switch the
 * workspace's end-user accounts on or off, and whether visitors may sign themselves up. Switching
 * off refuses account sessions at once (the authenticator checks the flag on every request);
 * sessions and users are kept for switching on. Self sign-up is off until the owner turns it on:
 * a sign-up proves nothing about who signs up (docs/identity.md).
 */
import { fieldsOf, parseWithSchema } from "../../core/body-schema.js";
import { badRequest } from "../../core/errors.js";
import { identitySettingsSchema } from "../../core/workspace-settings.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { identitySettingsOut } from "../responses.js";
import { defineRoutes } from "../route.js";
import { assertSelfSignupCanStart } from "../../services/workspaces.js";

const FIELDS = fieldsOf(identitySettingsSchema);

export const identitySettingsRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Identity settings → {enabled, self_signup}",
    response: { schema: identitySettingsOut, description: "The settings" },
    handler: (_event, { workspace }) => ({ enabled: workspace.identity, self_signup: workspace.selfSignup }),
  },
  {
    method: "PUT",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Switch Identity (end-user accounts) and self sign-up on or off: {enabled?, self_signup?}",
    body: { schema: identitySettingsSchema },
    response: { schema: identitySettingsOut, description: "The settings" },
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const extra = Object.keys(body).find((k) => !FIELDS.includes(k));
      if (extra) throw badRequest(`Unknown field ${JSON.stringify(extra)}; identity settings take {enabled, self_signup}`);
      if (body.enabled === undefined && body.self_signup === undefined) throw badRequest("Give enabled and/or self_signup (true or false)");
      const input = parseWithSchema(identitySettingsSchema, body, { named: true });
      const enabled = input.enabled ?? workspace.identity;
      const selfSignup = input.self_signup ?? workspace.selfSignup;
      assertSelfSignupCanStart(service, workspace.selfSignup, selfSignup);
      if (enabled !== workspace.identity) await service.workspaces.setIdentity(workspace.id, enabled);
      if (selfSignup !== workspace.selfSignup) await service.workspaces.setSelfSignup(workspace.id, selfSignup);
      return { enabled, self_signup: selfSignup };
    },
  },
]);
