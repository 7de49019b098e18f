/**
 * `svc webhooks create --log-deliveries --standard-webhooks`, `deliveries`, `redeliver` and
 * `rotate-secret`, run as a user runs them: the built CLI in a child process, with --json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { startReceiver, type Receiver } from "../webhooks/helpers.js";

const run = promisify(execFile);
const CA = join(process.cwd(), "test/fixtures/tls/ca.pem");

describe("svc webhooks deliveries | redeliver | rotate-secret", () => {
  let dir: string;
  let receiver: Receiver;
  const svc = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", ...args], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: CA, SVC_WEBHOOKS_ALLOW_PRIVATE: "1" },
    });
    return JSON.parse(stdout);
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-whlog-"));
    receiver = await startReceiver();
    await svc("workspaces", "create", "demo", "--host", "demo.localhost");
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs deliveries, redelivers one, rotates the secret with a window in which both sign", async () => {
    const created = await svc("webhooks", "create", "-w", "demo", "--url", receiver.url("/cli"), "--event", "content.created", "--header", "X-Token=hidden-value", "--log-deliveries", "--standard-webhooks");
    expect(created).toMatchObject({ log_deliveries: true, standard_webhooks: true, header_names: ["X-Token"] });
    const { secret } = await svc("webhooks", "secret", "-w", "demo", created.id);
    expect((await svc("webhooks", "test", "-w", "demo", created.id, "--event", "content.created")).ok).toBe(true);

    const first = await svc("webhooks", "deliveries", "-w", "demo", created.id);
    expect(first.meta.total).toBe(1);
    expect(first.data[0]).toMatchObject({ attempt: 1, ok: true, response_status: 200, event: "content.created", custom_header_names: ["X-Token"] });
    expect(JSON.stringify(first)).not.toContain("hidden-value");
    expect(JSON.stringify(first)).not.toContain(secret);

    const again = await svc("webhooks", "redeliver", "-w", "demo", created.id, first.data[0].id);
    expect(again).toMatchObject({ ok: true, status: 200, attempts: 1, redelivery_of: first.data[0].id, delivery_id: expect.stringMatching(/^msg_/) });
    const redelivered = receiver.requests.at(-1)!;
    expect(redelivered.headers["webhook-id"]).toBe(again.delivery_id);
    expect(JSON.parse(redelivered.raw.toString()).data).toEqual(JSON.parse(first.data[0].body).data);
    const second = await svc("webhooks", "deliveries", "-w", "demo", created.id);
    expect(second.data.map((d: { redelivery: boolean }) => d.redelivery)).toEqual([true, false]);

    const rotated = await svc("webhooks", "rotate-secret", "-w", "demo", created.id, "--window", "600");
    expect(rotated).toMatchObject({ id: created.id, secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), previous_secret_until: expect.any(String) });
    expect((await svc("webhooks", "test", "-w", "demo", created.id, "--event", "content.created")).ok).toBe(true);
    const got = receiver.requests.at(-1)!;
    for (const s of [secret, rotated.secret]) expect(() => new Webhook(s).verify(got.raw.toString(), got.headers as Record<string, string>)).not.toThrow();
    expect(got.headers["x-service-signature"]).toBe("sha256=" + createHmac("sha256", rotated.secret).update(got.raw).digest("hex"));

    await expect(svc("webhooks", "rotate-secret", "-w", "demo", created.id, "--window", "soon")).rejects.toThrow(/--window takes whole seconds/);
  });
});
