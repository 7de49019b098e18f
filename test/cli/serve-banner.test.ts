/**
 * The first run of the real `svc serve` on a fresh data directory: every URL and command it prints
 * works as pasted. The commands run in bash exactly as printed; the URL it listens on, and every
 * demo host with the server's port, answer for the demo workspace (never `Unknown tenant`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { requestAt } from "../helpers/server.js";
import { builtCli, startInstance, type Instance } from "../scale/helpers.js";

const run = promisify(execFile);
const hasIpv6Loopback = () => Object.values(networkInterfaces()).some((list) => list?.some((a) => a.family === "IPv6" && a.address === "::1"));

describe.skipIf(!builtCli)("svc serve first-run banner", () => {
  let dir: string;
  let server: Instance;
  let output: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-banner-"));
    server = await startInstance({ dataDir: dir });
    await server.waitForOutput(/curl -s \S+\/api\/v1\/posts\s*$/m);
    output = server.output();
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints commands that work as pasted: a collection, a published entry, the public read", async () => {
    const commands = output.split("\n").filter((l) => /^\s+curl /.test(l)).map((l) => l.trim());
    expect(commands).toHaveLength(3);
    const results: unknown[] = [];
    for (const command of commands) {
      const { stdout } = await run("bash", ["-euo", "pipefail", "-c", command]);
      const body = JSON.parse(stdout) as Record<string, unknown>;
      expect(body, command).not.toHaveProperty("error");
      results.push(body);
    }
    expect(results[0]).toMatchObject({ name: "posts", access: "public" });
    expect(results[1]).toMatchObject({ _status: "published", title: "Hello, world" });
    expect(results[2]).toMatchObject({ data: [{ title: "Hello, world" }], meta: { total: 1 } });
  });

  it("the URL it listens on and every demo host, with any port, answer for the demo workspace", async () => {
    const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
    const res = await fetch(`${url}/api/v1/posts`);
    expect(res.status).toBe(200);
    const hosts = /hosts\s+(.+) \(any port\)/.exec(output)![1]!.split(", ");
    expect(hosts).toEqual(expect.arrayContaining(["localhost", "127.0.0.1", "[::1]"]));
    for (const host of hosts) {
      for (const withPort of [`${host}:${server.port}`, host, `${host}:8080`]) {
        const answer = await requestAt(server.base, "/api/v1/posts", { host: withPort });
        expect(answer.status, `Host: ${withPort}`).toBe(200);
      }
    }
  });

  it("listens where it says: [::1] beside 127.0.0.1 where the machine has IPv6", async () => {
    const line = /listening on (.+)/.exec(output)![1]!;
    if (!hasIpv6Loopback()) return expect(line).not.toContain("[::1]");
    expect(line).toContain(`http://[::1]:${server.port}`);
    const answer = await requestAt(`http://[::1]:${server.port}`, "/api/v1/posts", { host: "[::1]" });
    expect(answer.status).toBe(200);
  });

  it("prints the owner's sign-in and the key, which work", async () => {
    const [, email, password] = /owner sign-in\s+(\S+) \/ (\S+)/.exec(output)!;
    const login = await requestAt(server.base, "/api/dashboard/login", { host: "localhost", method: "POST", json: { email, password } });
    expect(login.status).toBe(200);
    const key = /API key\s+(pk_[0-9a-f]{64})/.exec(output)![1];
    const collections = await requestAt(server.base, "/api/dashboard/collections", { host: "127.0.0.1", token: key });
    expect(collections.status).toBe(200);
  });
});

describe.skipIf(!builtCli)("svc serve restarted on its data directory", () => {
  it("prints the dashboard URL again, and no credential", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-restart-"));
    try {
      const first = await startInstance({ dataDir: dir });
      await first.waitForOutput(/API key\s+pk_/);
      await first.stop();
      const again = await startInstance({ dataDir: dir });
      const line = await again.waitForOutput(/dashboard \(demo\)\s+(\S+)/);
      const out = again.output();
      await again.stop();
      expect(line[1]).toBe(`http://admin.localhost:${again.port}/_/`);
      expect(out).not.toMatch(/owner sign-in|API key|pk_|Created the demo workspace/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
