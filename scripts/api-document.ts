/**
 * The OpenAPI document of the route table alone (no workspace's collections): what docs/api.md
 * and the dashboard's generated types (dashboard/src/api-types.ts) are built from.
 */
import { openApiDocument } from "../src/http/openapi.js";
import { allRoutes } from "../src/http/routes/index.js";

export const apiDocument = () => openApiDocument(allRoutes, [], { title: "Workspace" });
