// contentsvc embedded in Deno: Deno.serve takes the service's web-standard fetch.
// Run: deno run -A examples/deno.mjs   (SVC_DATA_DIR and PORT are read from the environment)
import { createService } from "contentsvc";

const svc = await createService({ dataDir: Deno.env.get("SVC_DATA_DIR") ?? "./.svc" });
const server = Deno.serve(
  { port: Number(Deno.env.get("PORT") ?? 3000), hostname: "127.0.0.1", onListen: ({ port }) => console.log(`listening ${port}`) },
  svc.fetch,
);

Deno.addSignalListener("SIGTERM", async () => {
  await server.shutdown();
  await svc.close(); // flushes debounced webhook deliveries
  Deno.exit(0);
});
