/**
 * The access-control surfaces in one list for routes/index.ts, so the tenant router mounts them
 * together: dashboard sign-in, API keys and members (owner only), and Identity accounts.
 */
import type { RouteDef } from "../route.js";
import { accountRoutes } from "./accounts.js";
import { dashboardAuthRoutes } from "./dashboard-auth.js";
import { dashboardMeRoutes } from "./dashboard-me.js";
import { keyRoutes } from "./keys.js";
import { memberRoutes } from "./members.js";

export const accessControlRoutes: RouteDef[] = [...dashboardAuthRoutes, ...dashboardMeRoutes, ...keyRoutes, ...memberRoutes, ...accountRoutes];
