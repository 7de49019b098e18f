/**
 * A local HTTPS webhook receiver (certificate of test/fixtures/tls, SAN 127.0.0.1 and localhost).
 * Answers 204 at once and counts deliveries; when asked, reads `data.entry.sent_at` (ms since the
 * epoch with sub-ms precision, set by the dispatcher child when it emitted) to measure latency
 * from write to receipt. Both processes use performance.timeOrigin + now(): the same wall clock.
 */
import { createServer } from "node:https";
import { readFileSync } from "node:fs";
import { percentile } from "./util.mjs";

const TLS = new URL("../../test/fixtures/tls/", import.meta.url);
const wallNow = () => performance.timeOrigin + performance.now();

export async function start() {
  let count = 0;
  let firstAt = 0;
  let lastAt = 0;
  let latencies = [];
  let signatures = 0;
  let waiter;
  const server = createServer({ key: readFileSync(new URL("server-key.pem", TLS)), cert: readFileSync(new URL("server-cert.pem", TLS)) }, (req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = wallNow();
      count++;
      firstAt ||= at;
      lastAt = at;
      if (req.headers["x-service-signature"]) signatures++;
      const body = Buffer.concat(chunks).toString("utf8");
      const sent = body.includes('"sent_at"') ? JSON.parse(body)?.data?.entry?.sent_at : undefined;
      if (typeof sent === "number") latencies.push(at - sent);
      res.writeHead(204).end();
      if (waiter && count >= waiter.target) waiter.resolve();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const snapshot = () => ({
    count,
    signed: signatures,
    spanMs: lastAt - firstAt,
    latency: latencies.length ? { n: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) } : null,
  });
  return {
    info: { port: server.address().port, ca: readFileSync(new URL("ca.pem", TLS), "utf8") },
    commands: {
      reset() {
        count = signatures = firstAt = lastAt = 0;
        latencies = [];
        return true;
      },
      stats: snapshot,
      /** Resolves when `target` deliveries arrived or after `timeoutMs`; returns the stats. */
      async waitFor({ target, timeoutMs = 30_000 }) {
        if (count < target) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            waiter = { target, resolve: () => (clearTimeout(timer), resolve()) };
          });
          waiter = undefined;
        }
        return snapshot();
      },
    },
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}
