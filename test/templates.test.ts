/**
 * The receiver examples that `svc init` writes are real programs: run them and send them
 * signed and tampered deliveries.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signPayload } from "../src/core/signature.js";
import { runCli } from "../src/cli/index.js";

const SECRET = "whsec_" + "ab".repeat(32);
const body = JSON.stringify({ event: "content.published", data: { collection: "posts", entry: { id: "e1", _updated_at: "2026-01-01T00:00:00.000Z" } }, timestamp: "2026-01-01T00:00:00.000Z" });

describe("receiver templates", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill();
  });

  it("receiver-node.mjs accepts a signed delivery and refuses a tampered one", async () => {
    const child = spawn(process.execPath, ["templates/receiver-node.mjs"], { env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: "0" } });
    children.push(child);
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        const m = /listening on (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      child.on("exit", (code) => reject(new Error(`receiver exited ${code}`)));
    });
    const post = async (payload: string, signature: string) =>
      (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: payload, headers: { "content-type": "application/json", "x-service-signature": signature } })).status;
    const signature = await signPayload(body, SECRET);
    expect(await post(body, signature)).toBe(204);
    expect(await post(body, signature)).toBe(200); // duplicate delivery recognised
    expect(await post(body.replace("e1", "e2"), signature)).toBe(401);
    expect(await post(body, "sha256=" + "0".repeat(64))).toBe(401);
  });

  it("receiver-fetch.mjs verifies a web Request", async () => {
    process.env.WEBHOOK_SECRET = SECRET;
    const modulePath = new URL("../templates/receiver-fetch.mjs", import.meta.url).href;
    const { handleWebhook } = (await import(modulePath)) as { handleWebhook: (r: Request) => Promise<Response> };
    const signature = await signPayload(body, SECRET);
    const ok = await handleWebhook(new Request("http://x/", { method: "POST", body, headers: { "x-service-signature": signature } }));
    expect(ok.status).toBe(204);
    const bad = await handleWebhook(new Request("http://x/", { method: "POST", body: body + " ", headers: { "x-service-signature": signature } }));
    expect(bad.status).toBe(401);
  });

  it("svc init writes the templates and keeps existing files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-init-"));
    try {
      expect(await runCli(["init", dir])).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(["github-workflow.yml", "receiver-fetch.mjs", "receiver-node.mjs", "svc.config.json"]);
      expect(await runCli(["init", dir])).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
