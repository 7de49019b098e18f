// A contentsvc webhook receiver for any runtime with web Request/Response:
// Bun:  Bun.serve({ port: 8787, fetch: handleWebhook })
// Deno: Deno.serve({ port: 8787 }, handleWebhook)
// h3 v2: app.post("/webhooks/contentsvc", (event) => handleWebhook(event.req))
import { verifyRequest } from "contentsvc/signature";

const secret = globalThis.process?.env?.WEBHOOK_SECRET ?? globalThis.Deno?.env.get("WEBHOOK_SECRET");

/** @param {Request} request */
export async function handleWebhook(request) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const result = await verifyRequest(request, secret);
  if (!result.ok) return new Response(null, { status: 401 });
  const { event, data } = JSON.parse(result.body);
  // Idempotency key (spec 6.4): data.entry.id or data.submission.id.
  console.log(event, data.entry?.id ?? data.submission?.id);
  return new Response(null, { status: 204 });
}

export default { fetch: handleWebhook };
