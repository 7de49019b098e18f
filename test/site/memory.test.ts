/**
 * Deploy memory as a whole, measured in a separate process running the built library (run `npx
 * tsdown` first when running this file alone): six concurrent gzip bombs of 49 KB, each 48 MiB of
 * zeros once inflated, all unpacking at once, raise the server's peak resident set by a bounded
 * amount. Unpacked whole in memory, as before, they raised it by ~280 MB.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService } from "../../src/service.js";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import { callerAt } from "../helpers/scenario.js";
import { silentLogger } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { rawTar } from "./fixtures.js";

const CHILD = fileURLToPath(new URL("../fixtures/deploy-memory-child.mjs", import.meta.url));
const built = existsSync(fileURLToPath(new URL("../../dist/index.mjs", import.meta.url)));
const SECRET_KEY = Buffer.alloc(32, 5).toString("base64");
const DEPLOYS = 6;
// Generous for a loaded machine: one file and a 4 MiB batch per deploy, plus zlib's and tar's buffers.
const BOUND_MB = 120;

interface Child {
  port: number;
  memory(): Promise<{ rss: number; peak: number }>;
  kill(): void;
}

function startChild(db: TestDatabase): Promise<Child> {
  const env = { ...process.env, CHILD_DATABASE: db.url, CHILD_DATA_DIR: db.dataDir, CHILD_SECRET_KEY: SECRET_KEY, CHILD_DEPLOY_CONCURRENCY: String(DEPLOYS) };
  const proc = spawn(process.execPath, ["--expose-gc", CHILD], { env, stdio: ["pipe", "pipe", "inherit"] });
  const waiters: ((line: string) => void)[] = [];
  let buffer = "";
  proc.stdout.on("data", (c: Buffer) => {
    buffer += c.toString();
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      waiters.shift()?.(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => waiters.push(resolve));
  return nextLine().then((line) => {
    const port = Number(/listening on port (\d+)/.exec(line)?.[1]);
    if (!port) throw new Error(`child did not start: ${line}`);
    return {
      port,
      async memory() {
        const answer = nextLine();
        proc.stdin.write("mem\n");
        return JSON.parse(await answer) as { rss: number; peak: number };
      },
      kill: () => proc.kill("SIGKILL"),
    };
  });
}

describe.runIf(built).each(drivers)("deploy memory on %s", (driver) => {
  let db: TestDatabase;
  let child: Child;
  const owners: string[] = [];
  const deploy = (i: number, body: Uint8Array) =>
    callerAt(`http://127.0.0.1:${child.port}`, owners[i], { host: `w${i}.localhost` }).post("/api/dashboard/site/deploys", undefined, {
      body: body as BodyInit,
      headers: { "content-type": "application/gzip" },
    });

  beforeAll(async () => {
    db = await createTestDatabase(driver);
    const svc = await createService({ database: db.url, dataDir: db.dataDir, blobs: "memory:", secretKey: SECRET_KEY, logger: silentLogger() });
    try {
      for (let i = 0; i < DEPLOYS; i++) {
        const ws = await svc.context.workspaces.create({ slug: `w${i}`, hosts: [`w${i}.localhost`] });
        owners.push(await dashboardToken(svc.context, ws.id, "owner"));
      }
    } finally {
      await svc.close();
    }
    child = await startChild(db);
  });
  afterAll(async () => {
    child?.kill();
    await db?.cleanup();
  });

  it(`raises the peak resident set by less than ${BOUND_MB} MB for ${DEPLOYS} concurrent 48 MiB gzip bombs`, async () => {
    // Every module a deploy loads, loaded before the baseline.
    (await deploy(0, rawTar([{ path: "index.html", body: "<p>warm</p>" }]))).expectStatus(201);
    const mib = "\0".repeat(1024 * 1024);
    const bomb = gzipSync(rawTar(Array.from({ length: 48 }, (_, i) => ({ path: `zeros${i}.bin`, body: mib })), false), { level: 9 });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const baseline = await child.memory();
    const answers = await Promise.all(Array.from({ length: DEPLOYS }, (_, i) => deploy(i, bomb)));
    expect(answers.map((r) => r.status)).toEqual(Array(DEPLOYS).fill(201));
    const after = await child.memory();
    const grown = (after.peak - baseline.rss) / 2 ** 20;
    expect(grown, `peak ${(after.peak / 2 ** 20).toFixed(0)} MB over a baseline of ${(baseline.rss / 2 ** 20).toFixed(0)} MB`).toBeLessThan(BOUND_MB);
  });
});
