/**
 * Who is signed in: the dashboard reads it to draw only the sections the session's role and
 * grants reach. It reports what the access token carries — exactly what the API enforces.
 */
import { unauthorized } from "../../core/errors.js";
import { findMember } from "../../services/members.js";
import { access } from "../access.js";
import { defineRoutes } from "../route.js";

export const dashboardMeRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/me",
    access: access.session,
    summary: "The signed-in dashboard member: {id, email, role, grants, workspace: {slug, name, identity}}",
    response: { description: "{id, email, role, grants, workspace: {slug, name, identity}}" },
    async handler(_event, { service, workspace, principal }) {
      if (principal?.kind !== "member") throw unauthorized();
      const user = await findMember(service, workspace.id, principal.id);
      if (!user) throw unauthorized();
      return {
        id: user.id,
        email: user.email,
        role: principal.role,
        grants: [...principal.grants],
        workspace: { slug: workspace.slug, name: workspace.name, identity: workspace.identity },
      };
    },
  },
]);
