// contentsvc inside Fastify 5: hand the raw Node request/response to the service's Node handler.
// Run: node examples/fastify.mjs   (SVC_DATA_DIR and PORT are read from the environment)
import Fastify from "fastify";
import { createService } from "contentsvc";

const svc = await createService({ dataDir: process.env.SVC_DATA_DIR ?? "./.svc" });
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
