// contentsvc mounted in an Express 5 app beside your own routes.
// Run: node examples/express.mjs   (this app reads SVC_DATA_DIR, PORT and SVC_WEBHOOKS_ALLOW_PRIVATE)
import express from "express";
import { createService } from "contentsvc";

const svc = await createService({
  dataDir: process.env.SVC_DATA_DIR ?? "./.svc",
  // The library reads no environment: the app decides. Development only: webhooks to this machine.
  allowPrivateWebhookTargets: process.env.SVC_WEBHOOKS_ALLOW_PRIVATE === "1",
});
const app = express();
app.get("/hello", (_req, res) => res.json({ hello: "from express" }));
// Everything else goes to contentsvc. Mount it before any body parser: it reads raw bodies itself.
app.use((req, res) => svc.handler(req, res));

const server = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => console.log(`listening ${server.address().port}`));
process.on("SIGTERM", () => {
  server.close();
  void svc.close().then(() => process.exit(0));
});
