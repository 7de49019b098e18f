/**
 * Child processes of the bench: every server, receiver and dispatcher runs in its own Node
 * process, pinned with `taskset -c <core>` when taskset exists and the machine has two cores.
 * Each child speaks a tiny request/response protocol over the IPC channel (see child.mjs).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child.mjs", import.meta.url));

/** Server side and load side. The runner itself re-execs onto LOAD_CORE (run.mjs). */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

export const hasTaskset = spawnSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" }).status === 0;
// cpus(), not availableParallelism(): the runner itself runs under taskset, which narrows the latter.
export const canPin = hasTaskset && cpus().length >= 2;

/** `[command, args]` running `argv` on `core` when pinning is possible, else as is. */
export function pinned(core, argv) {
  return canPin ? ["taskset", ["-c", String(core), ...argv]] : [argv[0], argv.slice(1)];
}

/**
 * Starts `bench/lib/child.mjs <kind>` with `config`, resolves once it reported ready.
 * `nodeFlags` e.g. ["--cpu-prof", "--cpu-prof-dir=…"] or ["--expose-gc"].
 *
 * @returns {Promise<{info: any, call(cmd: string, args?: any): Promise<any>, stop(): Promise<void>, pid: number}>}
 */
export function startChild(kind, config = {}, { core = SERVER_CORE, nodeFlags = [], readyTimeoutMs = 180_000 } = {}) {
  const [cmd, args] = pinned(core, [process.execPath, ...nodeFlags, CHILD, kind]);
  const proc = spawn(cmd, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, BENCH_CHILD_CONFIG: JSON.stringify(config) },
  });
  const waiting = new Map();
  let nextId = 1;
  let exited = false;
  const exitPromise = new Promise((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));

  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      rejectReady(new Error(`${kind} child not ready after ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    proc.on("message", (msg) => {
      if (msg?.ready !== undefined) {
        clearTimeout(timer);
        resolveReady(handle(msg.ready));
      } else if (msg?.failed !== undefined) {
        clearTimeout(timer);
        rejectReady(new Error(`${kind} child failed to start: ${msg.failed}`));
      } else if (msg?.id !== undefined && waiting.has(msg.id)) {
        const { resolve, reject } = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error !== undefined) reject(new Error(`${kind}: ${msg.error}`));
        else resolve(msg.result);
      }
    });
    void exitPromise.then(({ code, signal }) => {
      exited = true;
      clearTimeout(timer);
      rejectReady(new Error(`${kind} child exited before ready (code ${code}, signal ${signal})`));
      for (const { reject } of waiting.values()) reject(new Error(`${kind} child exited (code ${code})`));
      waiting.clear();
    });
  });

  function handle(info) {
    return {
      info,
      pid: proc.pid,
      call(cmdName, callArgs) {
        if (exited) return Promise.reject(new Error(`${kind} child has exited`));
        const id = nextId++;
        return new Promise((resolve, reject) => {
          waiting.set(id, { resolve, reject });
          proc.send({ id, cmd: cmdName, args: callArgs });
        });
      },
      /** Graceful exit (so --cpu-prof writes its profile); SIGKILL after 15 s. */
      async stop() {
        if (exited) return;
        const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
        proc.send({ id: 0, cmd: "exit" });
        await exitPromise;
        clearTimeout(killer);
      },
    };
  }
}

/**
 * An embedded-default data directory (SQLite + local blobs) holding workspace `demo` with
 * `n` published and `n` draft posts, seeded by a service child that then exits.
 */
export async function seedDataDir(dataDir, n) {
  const seeder = await startChild("service", {
    dataDir,
    blobs: `${dataDir}/blobs`,
    listen: false,
    seed: { slug: "demo", hosts: ["localhost", "demo.localhost"], collections: [{ name: "posts", access: "public", published: n, drafts: n }] },
  });
  await seeder.stop();
}
