/**
 * The README's quick tour, executed as written: the shell block between the tour markers runs in
 * bash against a real server, with free ports.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe("README quick tour", () => {
  it("runs step by step and ends with a verified delivery", async () => {
    const readme = readFileSync("README.md", "utf8");
    const block = /<!-- tour:begin -->\n```sh\n([\s\S]*?)```\n<!-- tour:end -->/.exec(readme)?.[1];
    expect(block, "tour block in README.md").toBeTruthy();
    const [port, hookPort] = [await freePort(), await freePort()];
    // Its own process group, so whatever the tour left running is stopped with it.
    const child = spawn("bash", ["-euo", "pipefail", "-c", `trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${block}`], {
      env: { ...process.env, PORT: String(port), HOOK_PORT: String(hookPort) },
      detached: true,
    });
    const result = { stdout: "", stderr: "", status: null as number | null };
    child.stdout.on("data", (d: Buffer) => (result.stdout += d));
    child.stderr.on("data", (d: Buffer) => (result.stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 90_000);
    result.status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    clearTimeout(timer);
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // nothing left running
    }
    try {
      expect(result.status, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
      expect(result.stdout).toContain('"title":"Hello, world"');
      expect(result.stdout).toContain('{"error":"Unknown tenant"}');
      // 3b: the filtered, projected list with its author expanded, and the refusal of an unknown parameter
      expect(result.stdout).toMatch(/"title":"Notes by Ada","author":\{"id":"[0-9a-f-]{36}","name":"Ada"/);
      expect(result.stdout).toContain('"parameter":"colour"');
      const delivery = result.stdout.split("\n").find((l) => l.includes('"verified":true'));
      expect(delivery).toBeTruthy();
      expect(JSON.parse(delivery!).body).toMatchObject({ event: "content.published", data: { collection: "posts", entry: { title: "Second post" } } });
    } finally {
      rmSync("server.log", { force: true });
      rmSync("deliveries.log", { force: true });
    }
  }, 120_000);
});
