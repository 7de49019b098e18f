/**
 * Scenario 1, the reference: a bare h3 v2 app on node:http through `toNodeHandler` from
 * "h3/node" (the serving path of the service) returning a constant 20-item JSON list shaped like
 * a delivery response.
 */
import { createServer } from "node:http";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { referenceItems } from "./shapes.mjs";

export async function start() {
  const body = { data: referenceItems(20), meta: { total: 10_000, limit: 20, offset: 0 } };
  const app = new H3();
  app.get("/api/v1/posts", () => body);
  const server = createServer(toNodeHandler(app));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    info: { port: server.address().port },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}
