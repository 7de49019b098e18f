// contentsvc embedded in plain node:http: the service's Node handler.
// Run: node examples/node-http.mjs   (this app reads SVC_DATA_DIR, PORT and SVC_WEBHOOKS_ALLOW_PRIVATE)
import { createServer } from "node:http";
import { createService } from "contentsvc";

const svc = await createService({
  dataDir: process.env.SVC_DATA_DIR ?? "./.svc",
  // The library reads no environment: the app decides. Development only: webhooks to this machine.
  allowPrivateWebhookTargets: process.env.SVC_WEBHOOKS_ALLOW_PRIVATE === "1",
});
const server = createServer(svc.handler);
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => console.log(`listening ${server.address().port}`));

process.on("SIGTERM", () => {
  server.close();
  void svc.close().then(() => process.exit(0)); // flushes debounced webhook deliveries
});
