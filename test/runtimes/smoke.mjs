#!/usr/bin/env node
// Runtime smoke suite: runs each embedding example (examples/*.mjs) in its runtime — Node, Bun,
// Deno — and checks the delivery API, the dashboard API, /api/mcp and a signed webhook delivery
// over real HTTP. Prints "N passed, N failed" and exits non-zero on any failure.
//
// Usage: node test/runtimes/smoke.mjs [node|bun|deno …]
//   BUN=/path/to/bun DENO=/path/to/deno select the binaries (default: node_modules/.bin, then PATH).
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:https";
import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const svc = (args, env) => execFileSync(process.execPath, [join(root, "bin/svc.mjs"), ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
const tls = (f) => readFileSync(join(root, "test/fixtures/tls", f), "utf8");

function binary(name, envName) {
  if (process.env[envName]) return process.env[envName];
  const local = join(root, "node_modules/.bin", name);
  if (existsSync(local)) return local;
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const runtimes = {
  node: () => [process.execPath, ["examples/node-http.mjs"]],
  express: () => [process.execPath, ["examples/express.mjs"]],
  fastify: () => [process.execPath, ["examples/fastify.mjs"]],
  bun: () => {
    const bin = binary("bun", "BUN");
    return bin && [bin, ["examples/bun.mjs"]];
  },
  deno: () => {
    const bin = binary("deno", "DENO");
    return bin && [bin, ["run", "-A", "examples/deno.mjs"]];
  },
};

let passed = 0;
let failed = 0;
const check = async (label, fn) => {
  try {
    await fn();
    passed++;
    console.log(`  ✓ ${label}`);
  } catch (error) {
    failed++;
    console.log(`  ✗ ${label}: ${error?.message ?? error}`);
  }
};
const assert = (cond, message) => {
  if (!cond) throw new Error(message);
};

async function startReceiver() {
  const received = [];
  const server = createServer({ key: tls("server-key.pem"), cert: tls("server-cert.pem") }, (req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.end("ok");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { received, port: server.address().port, close: () => (server.closeAllConnections(), server.close()) };
}

async function smoke(name) {
  const cmd = runtimes[name]?.();
  if (!cmd) {
    console.log(`${name}: not installed, skipped`);
    return;
  }
  console.log(`${name}: ${cmd[0]} ${cmd[1].join(" ")}`);
  await check("contentsvc/signature imports nothing and verifies the GitHub vector", async () => {
    const args = name === "deno" ? ["run", "-A", "test/runtimes/signature-check.mjs"] : ["test/runtimes/signature-check.mjs"];
    const out = execFileSync(cmd[0], args, { cwd: root, encoding: "utf8" });
    assert(out.includes("signature ok"), out);
  });
  const dataDir = mkdtempSync(join(tmpdir(), `svc-smoke-${name}-`));
  const env = { SVC_DATA_DIR: dataDir, SVC_WEBHOOKS_ALLOW_PRIVATE: "1" };
  svc(["workspaces", "create", "smoke", "--host", "127.0.0.1"], env);
  svc(["users", "create", "-w", "smoke", "--email", "owner@smoke.test", "--password", "correct horse battery", "--role", "owner"], env);
  const readKey = JSON.parse(svc(["keys", "create", "-w", "smoke", "--name", "reader", "--grant", "entries:read", "--json"], env)).value;
  const bareKey = JSON.parse(svc(["keys", "create", "-w", "smoke", "--name", "bare", "--json"], env)).value;

  const receiver = await startReceiver();
  const child = spawn(cmd[0], cmd[1], {
    cwd: root,
    env: { ...process.env, ...env, PORT: "0", NODE_EXTRA_CA_CERTS: join(root, "test/fixtures/tls/ca.pem"), DENO_CERT: join(root, "test/fixtures/tls/ca.pem") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line in 20 s; stderr: ${stderr.slice(0, 500)}`)), 20_000);
      child.stdout.on("data", (d) => {
        const m = /listening (\d+)/.exec(String(d));
        if (m) (clearTimeout(timer), resolve(Number(m[1])));
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}; stderr: ${stderr.slice(0, 500)}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const api = async (path, { token, json, method } = {}) => {
      const res = await fetch(base + path, {
        method: method ?? (json ? "POST" : "GET"),
        headers: { ...(token && { authorization: `Bearer ${token}` }), ...(json && { "content-type": "application/json" }) },
        body: json && JSON.stringify(json),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    };

    let owner;
    await check("dashboard login as owner", async () => {
      const r = await api("/api/dashboard/login", { json: { email: "owner@smoke.test", password: "correct horse battery" } });
      assert(r.status === 200 && r.body.access_token, `login ${r.status} ${JSON.stringify(r.body)}`);
      owner = r.body.access_token;
    });
    let secret;
    await check("create a webhook and read its secret", async () => {
      const r = await api("/api/dashboard/webhooks", { token: owner, json: { url: `https://localhost:${receiver.port}/hook`, events: ["content.published"] } });
      assert(r.status === 201, `create webhook ${r.status} ${JSON.stringify(r.body)}`);
      secret = (await api(`/api/dashboard/webhooks/${r.body.id}/settings`, { token: owner })).body.secret;
      assert(/^whsec_/.test(secret), "no secret in settings");
    });
    await check("create collections through the dashboard API", async () => {
      for (const [name, access] of [["posts", "public"], ["notes", "private"]]) {
        const r = await api("/api/dashboard/collections", { token: owner, json: { name, access, fields: [{ name: "title", type: "string", required: true }] } });
        assert(r.status === 201, `collection ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      }
    });
    await check("publish an entry; drafts stay hidden", async () => {
      const pub = await api("/api/dashboard/collections/posts/entries", { token: owner, json: { title: "Hello", _status: "published" } });
      assert(pub.status === 201, `entry ${pub.status} ${JSON.stringify(pub.body)}`);
      await api("/api/dashboard/collections/posts/entries", { token: owner, json: { title: "Draft" } });
      const list = await api("/api/v1/posts");
      assert(list.status === 200 && list.body.data.length === 1 && list.body.data[0].title === "Hello", `delivery ${JSON.stringify(list.body)}`);
      assert(!list.headers.get("access-control-allow-origin"), "delivery sent CORS headers");
    });
    await check("private collection: 401 without key, 403 naming the grant, 200 with entries:read", async () => {
      assert((await api("/api/v1/notes")).status === 401, "no key");
      const bare = await api("/api/v1/notes", { token: bareKey });
      assert(bare.status === 403 && /entries:read/.test(bare.body.error), `bare key ${bare.status}`);
      assert((await api("/api/v1/notes", { token: readKey })).status === 200, "reader key");
    });
    await check("unknown host is 404 Unknown tenant", async () => {
      const r = await fetch(`http://localhost:${port}/api/v1/posts`);
      assert(r.status === 404 && (await r.json()).error === "Unknown tenant", `status ${r.status}`);
    });
    await check("/api/mcp: initialize and tools/list with a key; 401 without", async () => {
      const rpc = (body, token) =>
        fetch(`${base}/api/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token && { authorization: `Bearer ${token}` }) },
          body: JSON.stringify(body),
        });
      assert((await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" })).status === 401, "no key must be 401");
      const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "smoke", version: "1" } } }, readKey);
      assert(init.status === 200, `initialize ${init.status}`);
      const list = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" }, readKey);
      const text = await list.text();
      assert(list.status === 200 && text.includes("list_items"), `tools/list ${list.status} ${text.slice(0, 200)}`);
    });
    await check("a signed webhook delivery arrives for the published entry", async () => {
      const deadline = Date.now() + 10_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const got = receiver.received[0];
      assert(got, "no delivery within 10 s");
      const expected = "sha256=" + createHmac("sha256", secret).update(got.raw).digest("hex");
      assert(got.headers["x-service-signature"] === expected, "bad signature");
      assert(JSON.parse(got.raw).event === "content.published", "wrong event");
    });
  } catch (error) {
    failed++;
    console.log(`  ✗ ${name} did not start: ${error.message}`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(runtimes);
for (const name of wanted) await smoke(name);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
