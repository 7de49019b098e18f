/**
 * Local webhook development is one switch (`--allow-private-webhook-targets` or
 * SVC_WEBHOOKS_ALLOW_PRIVATE=1), honoured alike by `webhooks create`, `webhooks test`, CLI writes
 * (which deliver from the CLI process) and `serve`; every refusal it or NODE_EXTRA_CA_CERTS would
 * change says so. `webhooks listen` serves HTTPS with a local certificate kept in the data
 * directory and prints the URL to register and the CA to trust. All through the built CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { builtCli, startInstance } from "../scale/helpers.js";

const run = promisify(execFile);

/** The environment of a user's shell: none of the switches unless a step sets them. */
const baseEnv = () => {
  const env = { ...process.env };
  delete env.SVC_WEBHOOKS_ALLOW_PRIVATE;
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
};

describe.skipIf(!builtCli)("the private-webhook-targets switch and svc webhooks listen", () => {
  let dir: string;
  // The receiver takes its port from the OS (--port 0) and the webhook is pointed at the URL it
  // prints: a port probed first and bound later could be taken in between.
  const UNUSED_URL = "https://127.0.0.1:9/";
  let listener: ChildProcess | undefined;
  let lines: string[] = [];
  const svc = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", ...args], { env: { ...baseEnv(), ...env } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const startListener = (secret: string) =>
    new Promise<{ listening: string; ca: string }>((resolve, reject) => {
      lines = [];
      listener = spawn(process.execPath, ["bin/svc.mjs", "--data", dir, "--json", "webhooks", "listen", "--secret", secret, "--port", "0"], { env: baseEnv() });
      listener.stdout!.on("data", (d: Buffer) => {
        for (const line of d.toString().split("\n").filter(Boolean)) {
          lines.push(line);
          if (line.includes('"listening"')) resolve(JSON.parse(line));
        }
      });
      listener.once("exit", (code) => reject(new Error(`listen exited ${code}`)));
    });
  const stopListener = async () => {
    const child = listener;
    listener = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const delivered = async (predicate: (body: any) => boolean) => {
    for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      const hit = lines.map((l) => JSON.parse(l)).find((l) => l.verified === true && predicate(l.body));
      if (hit) return hit;
    }
    throw new Error(`no such verified delivery in:\n${lines.join("\n")}`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-private-"));
    expect((await svc(["workspaces", "create", "demo", "--host", "demo.localhost"])).code).toBe(0);
    expect((await svc(["collections", "create", "posts", "-w", "demo", "--access", "public", "--field", "title:string:required"])).code).toBe(0);
  });
  afterAll(async () => {
    await stopListener();
    rmSync(dir, { recursive: true, force: true });
  });

  it("one switch for create, test and CLI writes; each refusal names the fix", async () => {
    const create = ["webhooks", "create", "-w", "demo", "--url", UNUSED_URL, "--event", "content.created"];
    const refused = await svc(create);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/loopback address; only public addresses are allowed; .*--allow-private-webhook-targets or SVC_WEBHOOKS_ALLOW_PRIVATE=1/);

    const created = await svc([...create, "--allow-private-webhook-targets"]);
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const { secret } = JSON.parse((await svc(["webhooks", "secret", "-w", "demo", id])).stdout) as { secret: string };

    const announced = await startListener(secret);
    expect(announced.listening).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const pointed = await svc(["webhooks", "update", "-w", "demo", id, "--url", announced.listening, "--allow-private-webhook-targets"]);
    expect(pointed.code, pointed.stderr).toBe(0);
    expect(announced.ca).toBe(join(dir, "webhooks-tls", "ca.pem"));
    const trust = { NODE_EXTRA_CA_CERTS: announced.ca };

    // Connect time, without the switch: the literal is refused, and the message says how to allow it.
    const notAllowed = await svc(["webhooks", "test", "-w", "demo", id], trust);
    expect(notAllowed.code).toBe(1);
    expect(JSON.parse(notAllowed.stdout).error).toMatch(/^address 127\.0\.0\.1 is not allowed \(a loopback address; .*--allow-private-webhook-targets/);

    // The switch without trusting the local CA: the certificate refusal names NODE_EXTRA_CA_CERTS.
    const untrusted = await svc(["webhooks", "test", "-w", "demo", id, "--allow-private-webhook-targets"]);
    expect(untrusted.code).toBe(1);
    expect(JSON.parse(untrusted.stdout).error).toMatch(/certificate is not trusted.*NODE_EXTRA_CA_CERTS=/);

    // The environment variable is the same switch.
    const tested = await svc(["webhooks", "test", "-w", "demo", id], { ...trust, SVC_WEBHOOKS_ALLOW_PRIVATE: "1" });
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(JSON.parse(tested.stdout)).toMatchObject({ ok: true, status: 204 });

    // A CLI write delivers from the CLI process, under the same switch.
    const write = await svc(["entries", "create", "posts", "-w", "demo", "--field", "title=From the CLI", "--allow-private-webhook-targets"], trust);
    expect(write.code, write.stderr).toBe(0);
    const delivery = await delivered((b) => b.event === "content.created" && b.data?.entry?.title === "From the CLI");
    expect(delivery.body.data.collection).toBe("posts");
  }, 120_000);

  it("listen reuses its local certificate across runs", async () => {
    const ca = join(dir, "webhooks-tls", "ca.pem");
    expect(existsSync(ca)).toBe(true);
    const before = [readFileSync(ca, "utf8"), readFileSync(join(dir, "webhooks-tls", "cert.pem"), "utf8")];
    await stopListener();
    const again = await startListener("whsec_other");
    expect(again.ca).toBe(ca);
    expect([readFileSync(ca, "utf8"), readFileSync(join(dir, "webhooks-tls", "cert.pem"), "utf8")]).toEqual(before);
  }, 60_000);

  it("listen, for a person, prints the URL to register, the CA file and the NODE_EXTRA_CA_CERTS the sender needs", async () => {
    await stopListener();
    // The test runner's variables make consola quiet; a user's shell has none of them.
    const env = baseEnv();
    for (const name of Object.keys(env)) if (/^(VITEST|TEST$|NODE_ENV$)/.test(name)) delete env[name];
    const child = spawn(process.execPath, ["bin/svc.mjs", "--data", dir, "webhooks", "listen", "--secret", "whsec_s", "--port", "0"], { env: { ...env, NO_COLOR: "1" } });
    let out = "";
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("npx svc serve")) resolve();
        });
        child.once("exit", () => reject(new Error(`listen exited:\n${out}`)));
      });
      const ca = join(dir, "webhooks-tls", "ca.pem");
      expect(out).toMatch(/--url https:\/\/127\.0\.0\.1:\d+\//);
      expect(out).toContain(`CA         ${ca}`);
      expect(out).toContain(`NODE_EXTRA_CA_CERTS=${ca} npx svc serve --allow-private-webhook-targets`);
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);

  it("svc serve honours the switch when saving a webhook over HTTP", async () => {
    const serveDir = mkdtempSync(join(tmpdir(), "svc-private-serve-"));
    const server = await startInstance({ dataDir: serveDir });
    try {
      const [, email, password] = await server.waitForOutput(/owner sign-in\s+(\S+) \/ (\S+)/);
      const login = await server.request("/api/dashboard/login", { host: "localhost", method: "POST", json: { email, password } });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const saved = await server.request("/api/dashboard/webhooks", { host: "localhost", method: "POST", token, json: { url: UNUSED_URL, events: ["content.created"] } });
      expect(saved.status, await saved.clone().text()).toBe(201);
    } finally {
      await server.stop();
      rmSync(serveDir, { recursive: true, force: true });
    }
  }, 60_000);
});
