/**
 * `svc collections update <name>` in process, with and without --json, on a SQLite data
 * directory: one field added, renamed (values move) or removed (values only with --confirm-drop).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/index.js";

describe("svc collections update", () => {
  let dir: string;

  async function svc(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const code = await runCli(["--data", dir, ...args]);
      return { code, stdout, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }
  const json = async (...args: string[]) => {
    const r = await svc("--json", ...args);
    return { ...r, json: r.stdout ? JSON.parse(r.stdout) : undefined };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-update-"));
    process.env.SVC_SECRET_KEY = Buffer.alloc(32, 3).toString("base64");
    expect((await svc("workspaces", "create", "demo", "--host", "demo.localhost")).code).toBe(0);
    expect((await svc("collections", "create", "posts", "-w", "demo", "--field", "title:string", "--field", "label:string")).code).toBe(0);
    expect((await svc("entries", "create", "posts", "-w", "demo", "--field", "title=Hello", "--field", "label=x", "--status", "published")).code).toBe(0);
  });
  afterAll(() => {
    delete process.env.SVC_SECRET_KEY;
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds a field (--json prints {data, meta: {values}})", async () => {
    const r = await json("collections", "update", "posts", "-w", "demo", "--add-field", "views:number");
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.meta).toEqual({ values: 0 });
    expect(r.json.data.fields).toEqual([{ name: "title", type: "string" }, { name: "label", type: "string" }, { name: "views", type: "number" }]);
    const required = await svc("collections", "update", "posts", "-w", "demo", "--add-field", "slug:string:required");
    expect(required.code).toBe(1);
    expect(required.stderr).toMatch(/Cannot make field slug of collection posts required: 1 stored entry has no value for it/);
  });

  it("renames a field and moves its values", async () => {
    const r = await svc("collections", "update", "posts", "-w", "demo", "--rename-field", "title:headline");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("Renamed field title to headline (1 value moved) in collection posts: headline:string, label:string, views:number\n");
    const entries = await json("entries", "list", "posts", "-w", "demo");
    expect(entries.json.data[0]).toMatchObject({ headline: "Hello", label: "x" });
    expect(Object.hasOwn(entries.json.data[0], "title")).toBe(false);
  });

  it("removes a field holding values only with --confirm-drop", async () => {
    const refused = await json("collections", "update", "posts", "-w", "demo", "--remove-field", "label");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(JSON.parse(refused.stderr)).toEqual({
      error: "Removing field label of collection posts drops 1 stored value; confirm the drop (--confirm-drop) or clear it first",
      field: "label",
      values: 1,
      confirm: "drop",
    });
    expect((await json("collections", "list", "-w", "demo")).json.data[0].fields.map((f: { name: string }) => f.name)).toContain("label");
    const dropped = await json("collections", "update", "posts", "-w", "demo", "--remove-field", "label", "--confirm-drop");
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(dropped.json.meta).toEqual({ values: 1 });
    expect(dropped.json.data.fields.map((f: { name: string }) => f.name)).toEqual(["headline", "views"]);
    const empty = await svc("collections", "update", "posts", "-w", "demo", "--remove-field", "views");
    expect(empty.stdout).toBe("Removed field views (0 values dropped) in collection posts: headline:string\n");
  });

  it.each([
    [["--add-field", "a:string", "--remove-field", "headline"], /exactly one of --add-field, --rename-field, --remove-field/],
    [[], /exactly one of/],
    [["--rename-field", "headline"], /--rename-field headline: expected old:new/],
    [["--add-field", "a:string", "--confirm-drop"], /--confirm-drop goes with --remove-field/],
  ])("refuses %j as a usage error (exit 2)", async (flags, message) => {
    const r = await svc("collections", "update", "posts", "-w", "demo", ...flags);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("answers an unknown field or collection with the service's message", async () => {
    const r = await svc("collections", "update", "posts", "-w", "demo", "--remove-field", "nope");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/remove: unknown field nope of collection posts \(fields: headline\)/);
    expect((await svc("collections", "update", "ghosts", "-w", "demo", "--remove-field", "x")).stderr).toMatch(/Unknown collection: ghosts/);
  });
});
