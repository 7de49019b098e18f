/**
 * Who is signed in: the dashboard reads it to draw only the sections the session's role and
 * grants reach. It reports what the access token carries, and the grants that come to in effect
 * (owners: all; members: the implications of spec 5.4.2), so the dashboard asks the server rather
 * than keeping its own copy of the implication rules.
 */
import { unauthorized } from "../../core/errors.js";
import { ACCESS_TOKEN_TTL_MS } from "../../core/lifetimes.js";
import { effectiveGrants } from "../../core/principal.js";
import { findMember } from "../../services/members.js";
import { siteHosts } from "../../services/workspaces.js";
import { access } from "../access.js";
import { meSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export const dashboardMeRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/me",
    access: access.session,
    summary:
      "The signed-in dashboard member: {id, email, role, grants, effective_grants, workspace: {slug, name, identity, hosts}, access_token_ttl_seconds}; hosts are the site hosts (public forms and the site live there); effective_grants is what the API lets the session do (owners: all 16)",
    response: { schema: meSchema, description: "The member, the stored and the effective grants, the workspace" },
    async handler(_event, { service, workspace, principal }) {
      if (principal?.kind !== "member") throw unauthorized();
      const user = await findMember(service, workspace.id, principal.id);
      if (!user) throw unauthorized();
      return {
        id: user.id,
        email: user.email,
        role: principal.role,
        grants: [...principal.grants],
        effective_grants: effectiveGrants(principal),
        workspace: { slug: workspace.slug, name: workspace.name, identity: workspace.identity, hosts: await siteHosts(service, workspace.slug) },
        access_token_ttl_seconds: ACCESS_TOKEN_TTL_MS / 1000,
      };
    },
  },
]);
