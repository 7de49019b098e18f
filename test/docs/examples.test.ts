/**
 * Every code example in docs/ is either run here or says why not. A fenced block is preceded by
 * `<!-- example: run -->` (executed: sh in bash -euo pipefail, js as an ES module from the
 * repository root, json parsed) or `<!-- example: skip: <reason> -->`. docs/embedding.md's blocks
 * are the example files themselves, run by the runtime smoke suite (test/docs/embedding.test.ts).
 *
 * Run blocks get a live server on a fresh data directory, in document order (state carries over
 * within a document), with: PORT, BASE (http://127.0.0.1:$PORT), SVC_DATA_DIR (so `npx svc` works on
 * the same database), KEY (an API key with every grant), OWNER (an owner's dashboard token),
 * SVC_WEBHOOKS_ALLOW_PRIVATE=1. Workspace `demo` answers on demo.localhost, localhost and 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { ALL_GRANTS } from "../../src/core/grants.js";

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  marker: "run" | "skip" | undefined;
}

function blocks(file: string): Block[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    // Fences may be indented inside list items; the closing fence has the same indentation.
    let end = i + 1;
    while (end < lines.length && lines[end]!.trimEnd() !== `${open[1]}\`\`\``) end++;
    let j = i - 1;
    while (j >= 0 && lines[j]!.trim() === "") j--;
    const marker = /^<!-- example: (run|skip: .+) -->$/.exec(lines[j] ?? "")?.[1];
    const indent = open[1]!.length;
    const code = lines.slice(i + 1, end).map((l) => l.slice(indent)).join("\n");
    out.push({ file, line: i + 1, lang: open[2]!, code, marker: marker === "run" ? "run" : marker ? "skip" : undefined });
    i = end;
  }
  return out;
}

const docs = readdirSync("docs").filter((f) => f.endsWith(".md") && f !== "embedding.md").map((f) => `docs/${f}`);
const all = docs.flatMap(blocks);

describe("documentation examples", () => {
  it("every code block in docs/ is marked run or skip (with a reason)", () => {
    expect(all.filter((b) => !b.marker).map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  describe("run", () => {
    let t: TestServer;
    let env: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer("sqlite", { blobs: undefined, allowPrivateWebhookTargets: true });
      const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", "localhost", "127.0.0.1"], identity: true, selfSignup: true });
      env = {
        ...(process.env as Record<string, string>),
        PORT: String(t.port),
        BASE: t.base,
        SVC_DATA_DIR: t.db.dataDir,
        SVC_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
        SVC_WEBHOOKS_ALLOW_PRIVATE: "1",
        KEY: await apiKey(t.svc.context, ws.id, [...ALL_GRANTS]),
        OWNER: await dashboardToken(t.svc.context, ws.id, "owner"),
      };
    });
    afterAll(() => t?.close());

    const runnable = all.filter((b) => b.marker === "run");
    it.each(runnable.map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))("%s", async (_name, block) => {
      if (block.lang === "json") {
        expect(() => JSON.parse(block.code)).not.toThrow();
        return;
      }
      const [cmd, args] =
        block.lang === "js" || block.lang === "ts"
          ? [process.execPath, ["--input-type=module", "-e", block.code]]
          : ["bash", ["-euo", "pipefail", "-c", block.code]];
      // Asynchronous: the server the block talks to runs in this very process.
      const result = await run(cmd, args as string[], env);
      expect(result.status, `${block.file}:${block.line}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
      // A block runs a dozen CLI processes, each starting Node: slow on a loaded 2-core machine.
    }, 120_000);
  });
});

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 110_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
