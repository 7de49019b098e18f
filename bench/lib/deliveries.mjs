/**
 * What scenario 5 and `bench/tools/dispatcher-cpu.mjs` deliver: webhook targets, content.created events
 * shaped like the service's, and the reference the dispatcher is measured against — the same
 * signed POSTs through plain node:https, every request handed to a keep-alive agent at once.
 */
import { createHmac, randomUUID } from "node:crypto";
import { Agent, request } from "node:https";
import { entryData } from "./shapes.mjs";

const wallNow = () => performance.timeOrigin + performance.now();

/** `n` active webhooks of `workspaceId` subscribed to content.created, each with its own secret. */
export function deliveryTargets(workspaceId, n, url, debounceMs = 0) {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    workspaceId,
    url,
    events: ["content.created"],
    active: true,
    format: "service",
    headers: {},
    secret: `whsec_bench_${i}_${randomUUID()}`,
    debounceMs,
    debounceScope: "entry",
  }));
}

/** A content.created event; its entry carries `sent_at` (wall clock, ms) for write→receipt latency. */
export function contentCreated(workspaceId, i) {
  const at = new Date().toISOString();
  const entry = { id: randomUUID(), ...entryData(i), _status: "draft", _published_at: null, _created_by: workspaceId, _created_at: at, _updated_at: at, sent_at: wallNow() };
  return { workspaceId, event: "content.created", data: { collection: "posts", entry } };
}

/** User + system CPU µs of this process since `start` (a `process.cpuUsage()`). */
export function cpuSince(start) {
  const d = process.cpuUsage(start);
  return d.user + d.system;
}

/**
 * The reference: `count` signed POSTs of content.created bodies straight through node:https
 * (keep-alive agent with the dispatcher's default of 8 sockets per host), no matching, queue or
 * retries. Returns delivered count, elapsed ms, deliveries/s and sender CPU per delivery.
 */
export async function sendRaw({ workspaceId, url, ca, count = 10_000, sockets = 8 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, ca });
  const u = new URL(url);
  const secret = "whsec_reference";
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let ok = 0;
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const body = Buffer.from(JSON.stringify({ event: "content.created", data: contentCreated(workspaceId, i).data, timestamp: new Date().toISOString() }));
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      return new Promise((resolve) => {
        const req = request(
          { host: u.hostname, port: u.port, path: u.pathname, method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length, "x-service-signature": signature } },
          (res) => {
            res.resume();
            res.on("end", () => ((ok += res.statusCode < 300 ? 1 : 0), resolve()));
          },
        );
        req.on("error", resolve);
        req.end(body);
      });
    }),
  );
  const elapsedMs = performance.now() - t0;
  const cpuUs = cpuSince(cpu0);
  agent.destroy();
  return { count, ok, elapsedMs, perSecond: (ok / elapsedMs) * 1000, cpuPerDeliveryUs: cpuUs / Math.max(1, ok) };
}
