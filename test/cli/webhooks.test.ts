/**
 * `svc webhooks list|create|test|secret|listen` (DESIGN §4.1), run as a user runs them: the built
 * CLI in a child process, with --json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";
import { signPayload } from "../../src/core/signature.js";

const run = promisify(execFile);
const CA = join(process.cwd(), "test/fixtures/tls/ca.pem");

describe("svc webhooks", () => {
  let dir: string;
  let ok: Receiver;
  let failing: Receiver;
  const svc = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", ...args], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: CA, SVC_WEBHOOKS_ALLOW_PRIVATE: "1" },
    });
    return JSON.parse(stdout);
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-wh-"));
    ok = await startReceiver();
    failing = await startReceiver((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    await svc("workspaces", "create", "demo", "--host", "demo.localhost");
  });
  afterAll(async () => {
    await ok?.close();
    await failing?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates, lists, reveals the secret, and sends a signed test delivery", async () => {
    const created = await svc("webhooks", "create", "-w", "demo", "--url", ok.url("/cli"), "--event", "content.published", "form.submitted", "--header", "X-Token=abc");
    expect(Object.keys(created).sort()).toEqual(["active", "created_at", "events", "format", "header_names", "id", "url"]);
    expect(created).toMatchObject({ events: ["content.published", "form.submitted"], header_names: ["X-Token"], active: true, format: "service" });
    expect(await svc("webhooks", "list", "-w", "demo")).toEqual([created]);
    const { id, secret } = await svc("webhooks", "secret", "-w", "demo", created.id);
    expect(id).toBe(created.id);
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    const result = await svc("webhooks", "test", "-w", "demo", created.id, "--event", "content.published");
    expect(result).toMatchObject({ status: 200, ok: true, duration_ms: expect.any(Number), signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/) });
    const got = ok.requests.at(-1)!;
    expect(got.headers["x-token"]).toBe("abc");
    expect(got.headers["x-service-signature"]).toBe(result.signature);
    expect(result.signature).toBe("sha256=" + createHmac("sha256", secret).update(got.raw).digest("hex"));

    // Without --event the service sends the webhook's first subscribed event, never one it does not take.
    expect(await svc("webhooks", "test", "-w", "demo", created.id)).toMatchObject({ ok: true });
    expect(JSON.parse(ok.requests.at(-1)!.raw.toString()).event).toBe("content.published");
  });

  it("reports a failing receiver and exits 1", async () => {
    const created = await svc("webhooks", "create", "-w", "demo", "--url", failing.url(), "--event", "content.created");
    const error = await svc("webhooks", "test", "-w", "demo", created.id).catch((e: { code: number; stdout: string }) => e);
    expect((error as { code: number }).code).toBe(1);
    expect(JSON.parse((error as { stdout: string }).stdout)).toMatchObject({ status: 500, ok: false });
  });

  it("refuses an http:// URL with exit code 1 and a one-line error", async () => {
    const error = (await svc("webhooks", "create", "-w", "demo", "--url", "http://example.com/x", "--event", "content.created").catch((e: unknown) => e)) as {
      code: number;
      stderr: string;
    };
    expect(error.code).toBe(1);
    expect(error.stderr.trim().split("\n")).toHaveLength(1);
    expect(error.stderr).toMatch(/https/);
  });

  it("listen verifies each delivery and exits 1 on a bad signature when asked", async () => {
    const child = spawn(process.execPath, ["bin/svc.mjs", "--json", "webhooks", "listen", "--secret", "whsec_s", "--port", "0", "--http", "--exit-on-bad-signature"]);
    const lines: string[] = [];
    const url = await new Promise<string>((resolve) =>
      child.stdout.on("data", (d: Buffer) => {
        for (const line of d.toString().split("\n").filter(Boolean)) {
          lines.push(line);
          const m = /"listening":"([^"]+)"/.exec(line);
          if (m) resolve(m[1]!);
        }
      }),
    );
    const body = JSON.stringify({ event: "content.updated", data: {}, timestamp: "t" });
    const good = await fetch(url, { method: "POST", body, headers: { "x-service-signature": await signPayload(body, "whsec_s") } });
    expect(good.status).toBe(204);
    const bad = await fetch(url, { method: "POST", body, headers: { "x-service-signature": await signPayload(body, "whsec_other") } });
    expect(bad.status).toBe(401);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { listening: url },
      { at: expect.any(String), verified: true, body: JSON.parse(body) },
      { at: expect.any(String), verified: false, reason: "bad_signature" },
    ]);
  });
});
