/**
 * The built binary as a user runs it: `--version`, the `contentsvc` name beside `svc` (what
 * `npx contentsvc serve` relies on), and the upload progress bar, shown on a terminal only.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string; bin: Record<string, string> };
const env = { ...process.env, NO_COLOR: "1", SVC_SECRET_KEY: Buffer.alloc(32, 5).toString("base64") };
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("the svc binary", () => {
  let dir: string;
  const svc = (...args: string[]) => run(process.execPath, ["bin/svc.mjs", "--data", dir, ...args], { env });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-bin-"));
    await svc("workspaces", "create", "demo", "--host", "demo.localhost");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--version and -V print the package version", async () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await svc("--version")).stdout).toBe(`${pkg.version}\n`);
    expect((await svc("-V")).stdout).toBe(`${pkg.version}\n`);
  });

  it("installs as both svc and contentsvc, one file; npx contentsvc runs it", async () => {
    expect(pkg.bin).toEqual({ svc: "./bin/svc.mjs", contentsvc: "./bin/svc.mjs" });
    const { stdout } = await run("npx", ["--no-install", "contentsvc", "--data", dir, "--json", "workspaces", "list"], { env });
    expect(JSON.parse(stdout).map((w: { slug: string }) => w.slug)).toEqual(["demo"]);
  });

  it("media upload without a terminal or with --json prints no progress bar", async () => {
    const file = join(dir, "data.bin");
    writeFileSync(file, Buffer.alloc(256 * 1024, 1));
    const plain = await svc("media", "upload", file, "-w", "demo");
    expect(plain.stdout).toMatch(/^Uploaded data\.bin as [0-9a-f-]{36} \(application\/octet-stream, 262144 B\)\n$/);
    expect(plain.stderr).not.toMatch(/uploading|%/);
    const json = await svc("--json", "media", "upload", file, "-w", "demo");
    expect(JSON.parse(json.stdout)).toMatchObject({ filename: "data.bin", size: 262144 });
    expect(json.stderr).toBe("");
  });

  it.runIf(hasScript)("media upload on a terminal shows the progress bar, and not with --json", async () => {
    const file = join(dir, "big.bin");
    writeFileSync(file, Buffer.alloc(4 * 1024 * 1024, 2));
    // script(1) gives the command a pseudo-terminal, as an interactive shell would.
    const onTty = (extra: string) =>
      run("script", ["-qec", `"${process.execPath}" bin/svc.mjs --data "${dir}" ${extra} media upload "${file}" -w demo`, "/dev/null"], { env });
    const shown = (await onTty("")).stdout;
    expect(shown).toMatch(/uploading \[[=-]+\] 100% 4194304\/4194304 B/);
    expect(shown).toMatch(/Uploaded big\.bin as /);
    const quiet = (await onTty("--json")).stdout;
    expect(quiet).not.toMatch(/uploading/);
    expect(JSON.parse(quiet.replace(/\r\n/g, "\n"))).toMatchObject({ filename: "big.bin", size: 4194304 });
  });

  it("submissions export writes CSV to stdout", async () => {
    await svc("forms", "create", "contact", "-w", "demo", "--field", "email:email:required");
    const { stdout } = await svc("submissions", "export", "contact", "-w", "demo");
    expect(stdout).toBe("id,_submitted_at,_updated_at,email\r\n");
  });
});
