/**
 * The content surfaces in one list (registered once in routes/index.ts): collections, entries,
 * the Overview, the SDK and the delivery API.
 */
import type { RouteDef } from "../route.js";
import { collectionRoutes } from "./collections.js";
import { deliveryRoutes } from "./delivery.js";
import { entryRoutes } from "./entries.js";
import { overviewRoutes } from "./overview.js";
import { sdkRoutes } from "./sdk.js";

export const contentRoutes: RouteDef[] = [...collectionRoutes, ...entryRoutes, ...overviewRoutes, ...sdkRoutes, ...deliveryRoutes];
