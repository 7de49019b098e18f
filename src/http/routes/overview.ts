/**
 * The dashboard's Overview: collections with their published and draft counts, and the entries
 * changed last. Entry counts and labels are entry content, so it asks entries:read, which covers
 * every collection (spec 2.2).
 */
import { readOverview, RECENT_CHANGES } from "../../services/overview.js";
import { access } from "../access.js";
import { overviewSchema } from "../responses.js";
import { defineRoutes } from "../route.js";

export const overviewRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/dashboard/overview",
    access: access.grant("entries:read"),
    summary: `The dashboard's Overview → {collections: [{name, published, draft}], recent: [{collection, id, label, _status, _updated_at}]}: every collection's entry counts and the ${RECENT_CHANGES} entries updated last`,
    response: { schema: overviewSchema, description: "Counts per collection and the recent changes" },
    handler: (_event, { service, workspace, principal }) => readOverview(service, workspace.id, principal),
  },
]);
