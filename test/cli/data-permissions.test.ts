/**
 * The real `svc serve` (built bundle) under umask 022: the data directory it creates is 0700 and
 * the SQLite database, its -wal and -shm, secret.key and a stored media blob are 0600; an existing
 * 0755 data directory is tightened to 0700 with one log line.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, startInstance, type Instance } from "../scale/helpers.js";

const modeOf = (path: string) => statSync(path).mode & 0o777;
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(e.parentPath, e.name)) : [join(e.parentPath, e.name)]));

describe.skipIf(!builtCli)("svc serve keeps its data directory private (umask 022)", () => {
  let root: string;
  let umask: number;
  const servers: Instance[] = [];
  beforeAll(() => {
    umask = process.umask(0o022); // inherited by the spawned CLI
    root = mkdtempSync(join(tmpdir(), "svc-perms-"));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    rmSync(root, { recursive: true, force: true });
    process.umask(umask);
  });

  it("a fresh data directory is 0700; the database, -wal, -shm and a media blob are 0600", async () => {
    const data = join(root, "fresh");
    const server = await startInstance({ dataDir: data });
    servers.push(server);
    const key = (await server.waitForOutput(/Bearer (pk_\w+)/))[1]!;
    const res = await server.request("/api/dashboard/media?filename=plans.txt", { method: "POST", body: "draft plans", token: key, headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(201);
    expect(modeOf(data)).toBe(0o700);
    for (const name of ["contentsvc.db", "contentsvc.db-wal", "contentsvc.db-shm"]) {
      expect(existsSync(join(data, name)), name).toBe(true);
      expect(modeOf(join(data, name)), name).toBe(0o600);
    }
    const blobs = filesUnder(join(data, "blobs"));
    expect(blobs.length).toBeGreaterThan(0);
    for (const file of blobs) expect(modeOf(file), file).toBe(0o600);
    expect(server.output()).not.toMatch(/open to other users/);
  });

  it("an existing 0755 data directory is tightened to 0700, with one log line", async () => {
    const data = join(root, "old");
    mkdirSync(data);
    expect(modeOf(data)).toBe(0o755);
    const server = await startInstance({ dataDir: data });
    servers.push(server);
    expect(modeOf(data)).toBe(0o700);
    expect(server.output().split("\n").filter((l) => l.includes("open to other users"))).toEqual([
      expect.stringContaining(`Data directory ${data} was open to other users (mode 755): changed to 700`),
    ]);
  });
});
