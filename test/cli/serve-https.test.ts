/**
 * How `svc serve` listens: `--https` through listhen with the local CA (the printed commands work
 * as pasted, trusting it with --cacert), a busy port fails instead of moving elsewhere (node:http
 * and listhen alike), and the flags listhen cannot serve in cluster mode are refused there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { builtCli, startInstance, type Instance } from "../scale/helpers.js";

const run = promisify(execFile);
const BIN = new URL("../../bin/svc.mjs", import.meta.url).pathname;

/** Runs `svc serve` expecting it to exit; resolves with its code and output. */
function serveExits(args: string[], dir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, SVC_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"), NO_COLOR: "1" };
    for (const name of Object.keys(env)) if (/^(VITEST|TEST$|NODE_ENV$|PORT$)/.test(name)) delete env[name];
    const proc = spawn(process.execPath, [BIN, "serve", "--data", dir, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
    proc.once("exit", (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

describe.skipIf(!builtCli)("svc serve through listhen", () => {
  let dir: string;
  let server: Instance;
  let output: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-https-"));
    server = await startInstance({ dataDir: dir, args: ["--https"] });
    await server.waitForOutput(/curl -s \S+\/api\/v1\/posts --cacert \S+\s*$/m);
    output = server.output();
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("--https: serves TLS with the local certificate; the printed commands work as pasted", async () => {
    expect(server.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // --port 0 is a random (ephemeral) port, not get-port-please's default of 3000 and up.
    expect(server.port).toBeGreaterThan(3100);
    const caFile = /clients trust it with its CA: (\S+)/.exec(output)![1]!;
    const ca = readFileSync(caFile, "utf8");
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${server.base}/api/v1/posts`, { ca, headers: { host: "localhost" } }, (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(404); // no collection yet: an answer over verified TLS
    const commands = output.split("\n").filter((l) => /^\s+curl /.test(l)).map((l) => l.trim());
    expect(commands).toHaveLength(3);
    const results: unknown[] = [];
    for (const command of commands) {
      const { stdout } = await run("bash", ["-euo", "pipefail", "-c", command]);
      results.push(JSON.parse(stdout));
    }
    expect(results[2]).toMatchObject({ data: [{ title: "Hello, world" }], meta: { total: 1 } });
    expect(/dashboard\s+(\S+)/.exec(output)![1]).toMatch(/^https:\/\/admin\.localhost:\d+\/_\/$/);
    // The request log still sees every request.
    await server.waitForOutput(/GET 127\.0\.0\.1:\d+ \/api\/v1\/posts 200 /);
  });

  // Without --https/--open, node:http listens (listhen is not even loaded); with them, listhen.
  it.each([
    { via: "node:http", args: [], message: (port: number) => new RegExp(`Port ${port} is in use on 127\\.0\\.0\\.1`) },
    { via: "listhen", args: ["--https"], message: (port: number) => new RegExp(`Unable to find an available port.*${port}`) },
  ])("a busy port fails with a message instead of moving to another port ($via)", async ({ args, message }) => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const other = mkdtempSync(join(tmpdir(), "svc-busy-"));
      const r = await serveExits(["--port", String(port), "--hostname", "127.0.0.1", ...args], other);
      rmSync(other, { recursive: true, force: true });
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(message(port));
      expect(r.out).not.toMatch(/listening on/);
    } finally {
      busy.close();
    }
  });

  it("refuses --https and --open with --cluster", async () => {
    const r = await serveExits(["--cluster", "2", "--https"], dir);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/--https and --open work without --cluster/);
  });
});
