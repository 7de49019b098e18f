// contentsvc embedded in Bun: Bun.serve takes the service's web-standard fetch.
// Run: bun examples/bun.mjs   (this app reads SVC_DATA_DIR, PORT and SVC_WEBHOOKS_ALLOW_PRIVATE)
import { createService } from "contentsvc";

const svc = await createService({
  dataDir: process.env.SVC_DATA_DIR ?? "./.svc",
  // The library reads no environment: the app decides. Development only: webhooks to this machine.
  allowPrivateWebhookTargets: process.env.SVC_WEBHOOKS_ALLOW_PRIVATE === "1",
});
const server = Bun.serve({ port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1", fetch: svc.fetch });
console.log(`listening ${server.port}`);

process.on("SIGTERM", async () => {
  server.stop();
  await svc.close(); // flushes debounced webhook deliveries
  process.exit(0);
});
