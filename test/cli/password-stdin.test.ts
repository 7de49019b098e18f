/**
 * `--password-stdin`: a member's password (svc members/users create) or an end user's new one
 * (svc end-users update) read from standard input instead of the command line, through the real
 * built CLI. One trailing newline is dropped; the password is never printed; --password and
 * --password-stdin together, or nothing on stdin, are usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createService, type Service } from "../../src/service.js";
import { createEndUser } from "../../src/services/end-users.js";
import { silentLogger } from "../helpers/server.js";
import { builtCli } from "../scale/helpers.js";

const BIN = new URL("../../bin/svc.mjs", import.meta.url).pathname;
const PASSWORD = "correct horse battery staple";

/** Runs the built `svc` with `input` on its standard input (a pipe, as in a script). */
function svc(dir: string, args: string[], input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "--data", dir, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe.skipIf(!builtCli)("--password-stdin", () => {
  let dir: string;
  const login = async (path: string, email: string, password: string) => {
    const service: Service = await createService({ dataDir: dir, logger: silentLogger() });
    try {
      const res = await service.fetch(new Request(`http://demo.localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) }));
      return res.status;
    } finally {
      await service.close();
    }
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-password-stdin-"));
    expect((await svc(dir, ["workspaces", "create", "demo", "--host", "demo.localhost", "--identity"])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(["members", "users"])("svc %s create reads the member's password from stdin and never prints it", async (group) => {
    const email = `${group}@demo.localhost`;
    const created = await svc(dir, ["--json", group, "create", "-w", "demo", "--email", email, "--role", "owner", "--password-stdin"], `${PASSWORD}\n`);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email, role: "owner" });
    expect(created.stdout + created.stderr).not.toContain(PASSWORD);
    expect(await login("/api/dashboard/login", email, PASSWORD)).toBe(200);
    expect(await login("/api/dashboard/login", email, `${PASSWORD}\n`)).toBe(401);
  });

  it("svc end-users update reads the new password from stdin", async () => {
    const service = await createService({ dataDir: dir, logger: silentLogger() });
    const ws = (await service.context.workspaces.list()).find((w) => w.slug === "demo")!;
    await createEndUser(service.context, ws.id, { email: "reader@demo.localhost", password: "first-password-1" });
    await service.close();
    const updated = await svc(dir, ["--json", "end-users", "update", "reader@demo.localhost", "-w", "demo", "--password-stdin"], `${PASSWORD}\r\n`);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout + updated.stderr).not.toContain(PASSWORD);
    expect(await login("/api/v1/accounts/login", "reader@demo.localhost", PASSWORD)).toBe(200);
  });

  it("refuses --password with --password-stdin, and an empty stdin", async () => {
    const both = await svc(dir, ["members", "create", "-w", "demo", "--email", "x@demo.localhost", "--role", "member", "--password", PASSWORD, "--password-stdin"], PASSWORD);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Give --password or --password-stdin, not both");
    const empty = await svc(dir, ["members", "create", "-w", "demo", "--email", "x@demo.localhost", "--role", "member", "--password-stdin"], "");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("standard input held no password");
    const neither = await svc(dir, ["members", "create", "-w", "demo", "--email", "x@demo.localhost", "--role", "member"]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/password is required: --password-stdin/);
  });
  // At a terminal the password is asked without echo; `script` gives the CLI a pseudo-terminal.
  it.skipIf(!existsSync("/usr/bin/script"))("at a terminal: asks without echo; Ctrl-D ends the prompt with a usage error (exit 2)", async () => {
    const atTerminal = (email: string, keys: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const command = [process.execPath, BIN, "--data", dir, "members", "create", "-w", "demo", "--email", email, "--role", "member", "--password-stdin"].map((a) => `'${a}'`).join(" ");
        const child = spawn("/usr/bin/script", ["-qec", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d;
          // Typed once the prompt shows; the pipe stays open so the terminal is never hung up.
          if (out.includes("Password:") && keys) {
            child.stdin.write(keys);
            keys = "";
          }
        });
        child.on("exit", (code) => resolve({ code, out }));
      });
    const typed = await atTerminal("typed@demo.localhost", `${PASSWORD}\r`);
    expect(typed.code, typed.out).toBe(0);
    expect(typed.out).not.toContain(PASSWORD);
    expect(await login("/api/dashboard/login", "typed@demo.localhost", PASSWORD)).toBe(200);
    const ended = await atTerminal("ended@demo.localhost", "\u0004");
    expect(ended.code, ended.out).toBe(2);
    expect(ended.out).toContain("No password given");
  });
});
