/**
 * Real `svc serve` processes for the scale-out suites (the built CLI: `npm test` builds it in
 * pretest; run `npx tsdown` before running these files alone). Every process gets the same
 * SVC_SECRET_KEY and trusts the test CA through NODE_EXTRA_CA_CERTS.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createService } from "../../src/service.js";
import { ALL_GRANTS } from "../../src/core/grants.js";
import { callerAt, type Caller, type CallerDefaults, type Result } from "../helpers/scenario.js";
import { requestAt, silentLogger } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";

const BIN = fileURLToPath(new URL("../../bin/svc.mjs", import.meta.url));
const CA_FILE = fileURLToPath(new URL("../fixtures/tls/ca.pem", import.meta.url));
export const SECRET_KEY = Buffer.alloc(32, 9).toString("base64");
export const builtCli = existsSync(fileURLToPath(new URL("../../dist/cli.mjs", import.meta.url)));

export interface InstanceOptions {
  dataDir: string;
  database?: string;
  redis?: string;
  blobs?: string;
  args?: string[];
}

type Init = RequestInit & { host?: string; token?: string; json?: unknown };

export interface Instance {
  proc: ChildProcess;
  base: string;
  port: number;
  output(): string;
  /** Resolves with the first match of `re` in the output so far or to come. */
  waitForOutput(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  request(path: string, init?: Init): Promise<Response>;
  /** A scenario caller on this process (a bearer token, or none): statuses and bodies, no events. */
  as(token?: string, defaults?: CallerDefaults): Caller;
  /** Sends `signal` and resolves with the exit code once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `svc serve --port 0` and resolves once it printed its URL. */
export function startInstance(options: InstanceOptions): Promise<Instance> {
  const args = [BIN, "serve", "--port", "0", "--hostname", "127.0.0.1", "--allow-private-webhook-targets", "--data", options.dataDir];
  if (options.database) args.push("--database", options.database);
  if (options.redis) args.push("--redis", options.redis);
  args.push("--blobs", options.blobs ?? `${options.dataDir}/blobs`, ...(options.args ?? []));
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_SECRET_KEY: SECRET_KEY, NODE_EXTRA_CA_CERTS: CA_FILE, NO_COLOR: "1", FORCE_COLOR: "0" };
  // The test runner's variables make consola quiet (std-env isTest): the URL line must print.
  for (const name of Object.keys(env)) if (/^(VITEST|TEST$|NODE_ENV$|SVC_|PORT$)/.test(name) && name !== "SVC_SECRET_KEY") delete env[name];
  const proc = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (proc.kill("SIGKILL"), reject(new Error(`svc serve did not start:\n${out}`))), 20_000);
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`svc serve exited (${code}):\n${out}`))));
    const onData = () => {
      const m = /listening on (https?):\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!m) return;
      proc.stdout!.off("data", onData);
      clearTimeout(timer);
      const port = Number(m[2]);
      const base = `${m[1]}://127.0.0.1:${port}`;
      resolve({
        proc,
        base,
        port,
        output: () => out,
        async waitForOutput(re, timeoutMs = 5000) {
          for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
            const m = re.exec(out);
            if (m) return m;
          }
          throw new Error(`no ${re} in the output:\n${out}`);
        },
        request: (path, init) => request(base, path, init),
        as: (token, defaults) => callerAt(base, token, defaults),
        stop(signal = "SIGTERM") {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
          return exited;
        },
      });
    };
    proc.stdout!.on("data", onData);
  });
}

/** fetch with a Host header (default demo.localhost), a bearer token and a JSON body. */
export function request(base: string, path: string, init: Init = {}): Promise<Response> {
  return requestAt(base, path, init);
}

/** Migrates the database and creates workspace `demo` with an owner session and an all-grants key. */
export async function seedDemo(database: string, dataDir: string): Promise<{ workspaceId: string; owner: string; key: string }> {
  const svc = await createService({ database, dataDir, blobs: "memory:", secretKey: SECRET_KEY, logger: silentLogger() });
  try {
    const ws = await svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    return { workspaceId: ws.id, owner: await dashboardToken(svc.context, ws.id, "owner"), key: await apiKey(svc.context, ws.id, [...ALL_GRANTS]) };
  } finally {
    await svc.close();
  }
}

/** The statuses and bodies of concurrent requests, as `[status, body]` sorted by status. */
export async function both(...results: Promise<Result>[]): Promise<[number, any][]> {
  return (await Promise.all(results)).map((r) => [r.status, r.body] as [number, any]).sort((x, y) => x[0] - y[0]);
}
