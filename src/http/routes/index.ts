/**
 * Every tenant surface's routes, in one list: the source of the access table (docs/access.md).
 */
import type { RouteDef } from "../route.js";
import { mediaRoutes } from "./media.js";
import { siteRoutes } from "./sites.js";
import { webhookRoutes } from "./webhooks.js";
import { webhookDeliveryRoutes } from "./webhook-deliveries.js";
import { accessControlRoutes } from "./access-control.js";
import { contentRoutes } from "./content.js";
import { mcpRoutes } from "./mcp.js";
import { formRoutes } from "./forms.js";
import { submissionRoutes } from "./submissions.js";
import { ruleRoutes } from "./rules.js";
import { endUserRoutes } from "./users.js";
import { identitySettingsRoutes } from "./identity-settings.js";
import { openApiRoutes } from "./openapi.js";

export const allRoutes: RouteDef[] = [
  ...mediaRoutes,
  ...siteRoutes,
  ...webhookRoutes,
  ...webhookDeliveryRoutes,
  ...accessControlRoutes,
  ...contentRoutes,
  ...mcpRoutes,
  ...formRoutes,
  ...submissionRoutes,
  ...ruleRoutes,
  ...endUserRoutes,
  ...identitySettingsRoutes,
  ...openApiRoutes(() => allRoutes),
];
