// contentsvc inside Fastify 5: hand the raw Node request/response to the service's Node handler.
// Run: node examples/fastify.mjs   (this app reads SVC_DATA_DIR, PORT and SVC_WEBHOOKS_ALLOW_PRIVATE)
import Fastify from "fastify";
import { createService } from "contentsvc";

const svc = await createService({
  dataDir: process.env.SVC_DATA_DIR ?? "./.svc",
  // The library reads no environment: the app decides. Development only: webhooks to this machine.
  allowPrivateWebhookTargets: process.env.SVC_WEBHOOKS_ALLOW_PRIVATE === "1",
});
const app = Fastify();
app.get("/hello", async () => ({ hello: "from fastify" }));
// Let contentsvc read bodies itself: pass every content type through untouched.
app.removeAllContentTypeParsers();
app.addContentTypeParser("*", (_req, _payload, done) => done(null));
app.all("/*", (req, reply) => {
  reply.hijack();
  svc.handler(req.raw, reply.raw);
});

await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
console.log(`listening ${app.server.address().port}`);
process.on("SIGTERM", async () => {
  await app.close();
  await svc.close();
  process.exit(0);
});
