/**
 * The README's quick tour, executed as written: the shell block between the tour markers, saved as
 * a file and run as a script (`bash tour.sh`) against a real server, twice in a row on the same
 * ports. Each run must stop what it started (npx's children included): nothing is left listening,
 * and the second run succeeds like the first.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The tour needs its ports before it starts (its curl commands name them): probed here, so a
// port can in principle be taken in between; the runs then fail on "in use", not silently.
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether anything accepts a connection on `host:port`. */
const listening = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** `bash tour.sh` as a user runs it, in its own process group (killed if it hangs). */
async function runTour(script: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const child = spawn("bash", [script], { env: { ...process.env, ...env }, detached: true });
  const result = { stdout: "", stderr: "", status: null as number | null };
  child.stdout.on("data", (d: Buffer) => (result.stdout += d));
  child.stderr.on("data", (d: Buffer) => (result.stderr += d));
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 150_000);
  result.status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  clearTimeout(timer);
  return result;
}

function expectTourOutput(result: { stdout: string; stderr: string; status: number | null }) {
  expect(result.status, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
  expect(result.stdout).toContain('"title":"Hello, world"');
  expect(result.stdout).toContain('{"error":"Unknown tenant"}');
  // 3b: the filtered, projected list with its author expanded, and the refusal of an unknown parameter
  expect(result.stdout).toMatch(/"title":"Notes by Ada","author":\{"id":"[0-9a-f-]{36}","name":"Ada"/);
  expect(result.stdout).toContain('"parameter":"colour"');
  const delivery = result.stdout.split("\n").find((l) => l.includes('"verified":true'));
  expect(delivery).toBeTruthy();
  expect(JSON.parse(delivery!).body).toMatchObject({ event: "content.published", data: { collection: "posts", entry: { title: "Second post" } } });
}

describe("README quick tour", () => {
  it("runs as a script, twice in a row, ends with a verified delivery and leaves nothing running", async () => {
    const readme = readFileSync("README.md", "utf8");
    const block = /<!-- tour:begin -->\n```sh\n([\s\S]*?)```\n<!-- tour:end -->/.exec(readme)?.[1];
    expect(block, "tour block in README.md").toBeTruthy();
    const dir = mkdtempSync(join(tmpdir(), "svc-tour-"));
    const script = join(dir, "tour.sh");
    writeFileSync(script, block!);
    const [port, hookPort] = [await freePort(), await freePort()];
    try {
      for (const run of [1, 2]) {
        const result = await runTour(script, { PORT: String(port), HOOK_PORT: String(hookPort) });
        expectTourOutput(result);
        for (const [host, p] of [["127.0.0.1", port], ["::1", port], ["127.0.0.1", hookPort]] as const) {
          expect(await listening(host, p), `run ${run}: something still listens on ${host} port ${p}`).toBe(false);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync("server.log", { force: true });
      rmSync("deliveries.log", { force: true });
    }
  }, 320_000);
});
