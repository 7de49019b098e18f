/**
 * The reference of scenario 7: the bare h3 app of scenario 1 as a plain process listening on
 * `argv[2]`, so its spawn-to-first-200 time can be compared with `svc serve`'s.
 */
import { createServer } from "node:http";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { referenceItems } from "./shapes.mjs";

const body = { data: referenceItems(20), meta: { total: 10_000, limit: 20, offset: 0 } };
const app = new H3();
app.get("/healthz", () => ({ ok: true }));
app.get("/api/v1/posts", () => body);
createServer(toNodeHandler(app)).listen(Number(process.argv[2]), "127.0.0.1");
process.once("SIGTERM", () => process.exit(0));
