// contentsvc embedded in plain node:http: the service's Node handler.
// Run: node examples/node-http.mjs   (SVC_DATA_DIR and PORT are read from the environment)
import { createServer } from "node:http";
import { createService } from "contentsvc";

const svc = await createService({ dataDir: process.env.SVC_DATA_DIR ?? "./.svc" });
const server = createServer(svc.handler);
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => console.log(`listening ${server.address().port}`));

process.on("SIGTERM", () => {
  server.close();
  void svc.close().then(() => process.exit(0)); // flushes debounced webhook deliveries
});
