/**
 * Small helpers shared by the runner and the child processes: statistics, a Host-setting HTTP
 * client (fetch/undici refuses to override Host), free ports and sleeping.
 */
import { request } from "node:http";
import { createServer } from "node:net";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Median of numbers (the figure every scenario reports). */
export function median(values) {
  const xs = values.filter((v) => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/**
 * In-process CPU per call, targets interleaved: one warm-up batch each, then `rounds` rounds of a
 * batch of `perBatch` awaited `call()`s per target, so drift hits all alike. Sets `t.us` (µs per
 * call, one per round) and prints each target's median.
 */
export async function cpuRounds(targets, { rounds, perBatch }) {
  for (const t of targets) {
    t.us = [];
    for (let j = 0; j < perBatch; j++) await t.call();
  }
  for (let r = 0; r < rounds; r++) {
    for (const t of targets) {
      const c0 = process.cpuUsage();
      for (let j = 0; j < perBatch; j++) await t.call();
      const c = process.cpuUsage(c0);
      t.us.push((c.user + c.system) / perBatch);
    }
  }
  const width = Math.max(...targets.map((t) => t.name.length)) + 2;
  for (const t of targets) console.log(`${t.name.padEnd(width)} ${median(t.us).toFixed(1).padStart(7)} µs/request  (runs: ${t.us.map((u) => u.toFixed(0)).join(" ")})`);
}

/** Nearest-rank percentile (p in 0..100) of numbers. */
export function percentile(values, p) {
  const xs = [...values].sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  return xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];
}

/** A free loopback TCP port (bound then released; fine on a quiet bench machine). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * One HTTP request on loopback with any Host header. Resolves `{status, body}`; never keeps the
 * connection (agent: false), so a start-up probe measures a fresh connection each time.
 */
export function httpRequest(port, path, { method = "GET", host = "localhost", headers = {}, json, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        agent: false,
        setHost: false,
        timeout: timeoutMs,
        headers: { host, ...(body && { "content-type": "application/json", "content-length": body.length }), ...headers },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** `{status, json}` of a request whose body is JSON (throws on a non-2xx with the body in the message). */
export async function httpJson(port, path, init = {}) {
  const res = await httpRequest(port, path, init);
  if (res.status < 200 || res.status > 299) throw new Error(`${init.method ?? "GET"} ${path} -> ${res.status}: ${res.body.slice(0, 300)}`);
  return res.body ? JSON.parse(res.body) : undefined;
}

/** Formats a number for the table: integers with thousands separators, small values with 2-3 digits. */
export function fmt(n, unit = "") {
  if (typeof n !== "number" || !Number.isFinite(n)) return "-";
  const abs = Math.abs(n);
  const s = abs >= 100 ? Math.round(n).toLocaleString("en-US") : abs >= 10 ? n.toFixed(1) : n.toFixed(2);
  return unit ? `${s} ${unit}` : s;
}
