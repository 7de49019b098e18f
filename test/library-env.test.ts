/**
 * The embedded library takes options alone: the CLI's environment variables, set in the embedding
 * process, change nothing (no private webhook targets, no data directory, no master keys).
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createService } from "../src/index.js";
import { createSealer } from "../src/storage/seal.js";
import { requestAt, silentLogger } from "./helpers/server.js";
import { dashboardToken } from "./helpers/sessions.js";

const VARS = ["SVC_DATA_DIR", "SVC_SECRET_KEY", "SVC_SECRET_KEYS_OLD", "SVC_WEBHOOKS_ALLOW_PRIVATE"] as const;

describe("createService and the environment", () => {
  const saved = Object.fromEntries(VARS.map((name) => [name, process.env[name]]));
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), "svc-env-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const name of VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("ignores SVC_WEBHOOKS_ALLOW_PRIVATE, SVC_DATA_DIR, SVC_SECRET_KEY and SVC_SECRET_KEYS_OLD", async () => {
    const [envDir, dataDir] = [tmp(), tmp()];
    const oldKey = randomBytes(32);
    Object.assign(process.env, {
      SVC_WEBHOOKS_ALLOW_PRIVATE: "1",
      SVC_DATA_DIR: envDir,
      SVC_SECRET_KEY: randomBytes(32).toString("base64"),
      SVC_SECRET_KEYS_OLD: oldKey.toString("base64"),
    });
    const svc = await createService({ dataDir, logger: silentLogger() });
    const server = createServer(svc.handler);
    try {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const ws = await svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
      const token = await dashboardToken(svc.context, ws.id);

      const res = await requestAt(base, "/api/dashboard/webhooks", { method: "POST", token, json: { url: "https://127.0.0.1:8443/hook", events: ["content.created"] } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/loopback/);

      // The master key is the data directory's own, not SVC_SECRET_KEY; SVC_SECRET_KEYS_OLD opens nothing.
      expect(existsSync(join(dataDir, "secret.key"))).toBe(true);
      expect(readdirSync(envDir)).toEqual([]);
      expect(() => svc.context.sealer.open(createSealer([oldKey]).seal("x"))).toThrow(/unknown master key/);
    } finally {
      server.close();
      await svc.close();
    }
  });

  it("takes the same settings as options", async () => {
    const oldKey = randomBytes(32);
    const svc = await createService({
      dataDir: tmp(),
      secretKey: randomBytes(32).toString("base64"),
      oldSecretKeys: [oldKey.toString("base64")],
      allowPrivateWebhookTargets: true,
      logger: silentLogger(),
    });
    try {
      expect(svc.context.options.allowPrivateWebhookTargets).toBe(true);
      expect(svc.context.sealer.open(createSealer([oldKey]).seal("sealed before the rotation"))).toBe("sealed before the rotation");
    } finally {
      await svc.close();
    }
  });
});
