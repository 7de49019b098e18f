/**
 * Every tenant surface's routes, in one list: the source of the access table (docs/access.md).
 */
import type { RouteDef } from "../route.js";

export const allRoutes: RouteDef[] = [];
