/**
 * `svc site deploy|deploys|rollback` in process, with --json, on a SQLite data directory; a
 * service opened on the same directory serves what the CLI deployed.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/index.js";
import { createService } from "../../src/service.js";
import { silentLogger } from "../helpers/server.js";
import { siteFiles, writeTree } from "./fixtures.js";

describe("site CLI", () => {
  let dir: string;
  const secret = Buffer.alloc(32, 5).toString("base64");
  const trees: (() => void)[] = [];

  async function svc(...args: string[]): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const code = await runCli(["--data", dir, ...args]);
      return { code, json: args.includes("--json") && stdout ? JSON.parse(stdout) : undefined, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }
  const tree = (files: Record<string, string>) => {
    const t = writeTree(files);
    trees.push(t.cleanup);
    return t.dir;
  };
  async function served(path: string): Promise<string> {
    const service = await createService({ dataDir: dir, secretKey: secret, logger: silentLogger() });
    try {
      return await (await service.fetch(new Request(`http://demo.localhost${path}`))).text();
    } finally {
      await service.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-site-"));
    process.env.SVC_SECRET_KEY = secret;
    expect((await svc("workspaces", "create", "demo", "--host", "demo.localhost")).code).toBe(0);
  });
  afterAll(() => {
    delete process.env.SVC_SECRET_KEY;
    for (const cleanup of trees) cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("deploys a directory, lists deploys, rolls back (previous and named)", async () => {
    const first = await svc("--json", "site", "deploy", tree(siteFiles("v1")), "-w", "demo");
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ file_count: 5, live: true, previous_deploy_id: null });
    expect(await served("/blog/")).toBe("<h1>blog v1</h1>");

    const second = await svc("--json", "site", "deploy", tree(siteFiles("v2")), "-w", "demo");
    expect(second.json).toMatchObject({ live: true, previous_deploy_id: first.json.id });
    expect(await served("/")).toBe("<h1>home v2</h1>");

    const list = await svc("--json", "site", "deploys", "-w", "demo");
    expect(list.json.meta.total).toBe(2);
    expect(list.json.data.map((d: { id: string; live: boolean }) => [d.id, d.live]).sort()).toEqual(
      [[first.json.id, false], [second.json.id, true]].sort(),
    );

    const back = await svc("--json", "site", "rollback", "-w", "demo");
    expect(back.json).toMatchObject({ id: first.json.id, live: true, previous_deploy_id: second.json.id });
    expect(await served("/")).toBe("<h1>home v1</h1>");

    const named = await svc("--json", "site", "rollback", "-w", "demo", "--to", second.json.id);
    expect(named.json).toMatchObject({ id: second.json.id, live: true });
    const human = await svc("site", "deploys", "-w", "demo");
    expect(human.stdout).toContain(`${second.json.id}`);
    expect(human.stdout).toMatch(/live\n/);
  });

  it("refuses a missing directory (usage, exit 2), a symlink inside it (exit 1) and an unknown deploy", async () => {
    expect((await svc("site", "deploy", join(dir, "nope"), "-w", "demo")).code).toBe(2);
    const withLink = tree({ "index.html": "x" });
    symlinkSync("/etc/passwd", join(withLink, "passwd"));
    const linked = await svc("site", "deploy", withLink, "-w", "demo");
    expect([linked.code, linked.stderr]).toEqual([1, expect.stringMatching(/"passwd" is refused: symbolic links/)]);
    const unknown = await svc("site", "rollback", "-w", "demo", "--to", "00000000-0000-4000-8000-000000000000");
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/Deploy not found/)]);
  });

  it("honours the site settings from the environment (SVC_KEEP_DEPLOYS, SVC_SITE_QUOTA)", async () => {
    process.env.SVC_KEEP_DEPLOYS = "2";
    process.env.SVC_SITE_QUOTA = "1000";
    try {
      for (const v of ["k1", "k2", "k3"]) expect((await svc("site", "deploy", tree({ "index.html": v }), "-w", "demo")).code).toBe(0);
      const list = await svc("--json", "site", "deploys", "-w", "demo");
      expect(list.json.data).toHaveLength(2);
      const big = await svc("site", "deploy", tree({ "index.html": "x".repeat(1001) }), "-w", "demo");
      expect([big.code, big.stderr]).toEqual([1, expect.stringMatching(/site quota of 1000 bytes/)]);
      expect(await served("/")).toBe("k3");
    } finally {
      delete process.env.SVC_KEEP_DEPLOYS;
      delete process.env.SVC_SITE_QUOTA;
    }
  });
});
