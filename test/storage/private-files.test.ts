/**
 * The data directory is private to the service's user whatever the umask: created 0700, tightened
 * to 0700 at start (one log line) when group or others may enter it; the SQLite database with its
 * -wal/-shm, secret.key and every blob of the fs driver are 0600. Real HTTP, every driver (the
 * database files are SQLite's own).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConsola } from "consola";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { apiKey } from "../helpers/sessions.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(e.parentPath, e.name)) : [join(e.parentPath, e.name)]));

describe.each(drivers)("a private data directory under umask 022 on %s", (driver) => {
  let root: string;
  let dataDir: string;
  let t: TestServer;
  let key: string;
  const warnings: string[] = [];
  let umask: number;

  beforeAll(async () => {
    umask = process.umask(0o022);
    root = mkdtempSync(join(tmpdir(), "svc-private-"));
    dataDir = join(root, "data");
    mkdirSync(dataDir);
    expect(modeOf(dataDir)).toBe(0o755);
    const logger = createConsola({ level: 3, reporters: [{ log: (o) => void warnings.push(o.args.map(String).join(" ")) }] });
    t = await startTestServer(driver, {
      dataDir,
      blobs: join(dataDir, "blobs"),
      // No secretKey: the embedded default writes secret.key into the data directory.
      secretKey: undefined,
      logger,
      ...(driver === "sqlite" && { database: join(dataDir, "contentsvc.db") }),
    });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    key = await apiKey(t.svc.context, ws.id, ["media:write", "media:read"]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
    process.umask(umask);
  });

  it("an existing 0755 data directory is tightened to 0700, with one log line saying so", () => {
    expect(modeOf(dataDir)).toBe(0o700);
    const said = warnings.filter((w) => w.includes(dataDir));
    expect(said).toEqual([`Data directory ${dataDir} was open to other users (mode 755): changed to 700`]);
  });

  it("secret.key, the database with its -wal and -shm, and a stored media blob are 0600", async () => {
    const res = await t.request("/api/dashboard/media?filename=draft.txt", { method: "POST", body: "unpublished plans", token: key, headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(201);
    expect(modeOf(join(dataDir, "secret.key"))).toBe(0o600);
    expect(modeOf(join(dataDir, "blobs"))).toBe(0o700);
    const blobs = filesUnder(join(dataDir, "blobs"));
    expect(blobs.length).toBeGreaterThan(0);
    for (const file of blobs) expect(modeOf(file), file).toBe(0o600);
    if (driver === "sqlite") {
      for (const suffix of ["", "-wal", "-shm"]) {
        const file = join(dataDir, `contentsvc.db${suffix}`);
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe(0o600);
      }
    }
  });
});
