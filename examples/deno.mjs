// contentsvc embedded in Deno: Deno.serve takes the service's web-standard fetch.
// Run: deno run -A examples/deno.mjs   (this app reads SVC_DATA_DIR, PORT and SVC_WEBHOOKS_ALLOW_PRIVATE)
import { createService } from "contentsvc";

const svc = await createService({
  dataDir: Deno.env.get("SVC_DATA_DIR") ?? "./.svc",
  // The library reads no environment: the app decides. Development only: webhooks to this machine.
  allowPrivateWebhookTargets: Deno.env.get("SVC_WEBHOOKS_ALLOW_PRIVATE") === "1",
});
const server = Deno.serve(
  { port: Number(Deno.env.get("PORT") ?? 3000), hostname: "127.0.0.1", onListen: ({ port }) => console.log(`listening ${port}`) },
  svc.fetch,
);

Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown();
  await svc.close(); // flushes debounced webhook deliveries
  Deno.exit(0);
});
