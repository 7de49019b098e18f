/**
 * Identity settings (spec 5.5: identity settings are owner-only and cannot be granted): switch the
 * workspace's end-user accounts on or off. Switching off refuses account sessions at once (the
 * authenticator checks the flag on every request); sessions and users are kept for switching on.
 */
import { badRequest } from "../../core/errors.js";
import { access } from "../access.js";
import { readJsonObject } from "../body.js";
import { defineRoutes } from "../route.js";

export const identitySettingsRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Identity settings → {enabled}",
    handler: (_event, { workspace }) => ({ enabled: workspace.identity }),
  },
  {
    method: "PUT",
    path: "/api/dashboard/identity",
    access: access.owner,
    summary: "Switch Identity (end-user accounts) on or off: {enabled}",
    async handler(event, { service, workspace }) {
      const body = await readJsonObject(event, service.options.bodyLimit);
      const extra = Object.keys(body).find((k) => k !== "enabled");
      if (extra) throw badRequest(`Unknown field ${JSON.stringify(extra)}; identity settings take {enabled}`);
      if (typeof body.enabled !== "boolean") throw badRequest("enabled must be true or false");
      await service.workspaces.setIdentity(workspace.id, body.enabled);
      return { enabled: body.enabled };
    },
  },
]);
