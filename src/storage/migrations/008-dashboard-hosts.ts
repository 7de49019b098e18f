/**
 * Each workspace gets a dashboard host: a row of workspace_hosts marked `dashboard = 1`, so it
 * resolves to the workspace like any host and can never equal another workspace's host (the
 * primary key). Existing workspaces get `admin.<first named host>` unless that name is taken;
 * hosts that are IP literals have no `admin.` form and are skipped.
 */
import type { Dialect } from "../sql.js";

export const dashboardHosts = (_dialect: Dialect) => `
ALTER TABLE workspace_hosts ADD COLUMN dashboard INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX workspace_hosts_one_dashboard ON workspace_hosts(workspace_id) WHERE dashboard = 1;
INSERT INTO workspace_hosts (host, workspace_id, dashboard)
SELECT 'admin.' || MIN(host), workspace_id, 1 FROM workspace_hosts
WHERE substr(host, 1, 1) NOT IN ('[', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9')
GROUP BY workspace_id
ON CONFLICT DO NOTHING;
`;
