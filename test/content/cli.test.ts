/**
 * `svc collections …` / `svc entries …` in process, with --json, on a SQLite data directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/index.js";

describe("content CLI", () => {
  let dir: string;
  const secret = Buffer.alloc(32, 3).toString("base64");

  async function svc(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
    let stdout = "";
    let stderr = "";
    const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
    try {
      const code = await runCli(["--data", dir, "--json", ...args]);
      return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-cli-content-"));
    process.env.SVC_SECRET_KEY = secret;
    expect((await svc("workspaces", "create", "demo", "--host", "demo.localhost")).code).toBe(0);
  });
  afterAll(() => {
    delete process.env.SVC_SECRET_KEY;
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates and lists collections", async () => {
    const tags = await svc("collections", "create", "tags", "-w", "demo", "--field", "label:string:required", "--access", "public");
    expect(tags.code, tags.stderr).toBe(0);
    expect(tags.json).toMatchObject({ name: "tags", access: "public", fields: [{ name: "label", type: "string", required: true }] });
    const posts = await svc(
      "collections", "create", "posts", "-w", "demo",
      "--definition", JSON.stringify({ access: "private", fields: [{ name: "title", type: "string" }, { name: "views", type: "number" }, { name: "tags", type: "relations", collection: "tags" }] }),
    );
    expect(posts.code, posts.stderr).toBe(0);
    expect((await svc("collections", "list", "-w", "demo")).json.data.map((c: { name: string }) => c.name)).toEqual(["posts", "tags"]);
    const bad = await svc("collections", "create", "media", "-w", "demo");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/name: is reserved/);
  });

  it("creates, lists and publishes entries, typed by the definition", async () => {
    const tag = await svc("entries", "create", "tags", "-w", "demo", "--field", "label=news", "--status", "published");
    expect(tag.json).toMatchObject({ label: "news", _status: "published" });
    const ws = (await svc("workspaces", "list")).json[0];
    const post = await svc("entries", "create", "posts", "-w", "demo", "--field", "title=Hello", "--field", "views=3", "--field", `tags=${tag.json.id}`);
    expect(post.code, post.stderr).toBe(0);
    expect(post.json).toMatchObject({ title: "Hello", views: 3, tags: [tag.json.id], _status: "draft", _created_by: ws.id });
    const listed = await svc("entries", "list", "posts", "-w", "demo", "--filter", "views=3");
    expect(listed.json.meta.total).toBe(1);
    // The same query parser as the HTTP lists: a stray separator is refused naming the parameter, a usage error (exit 2).
    for (const sort of [",", " ,", "title,"]) {
      const stray = await svc("entries", "list", "posts", "-w", "demo", "--sort", sort);
      expect(stray.code, sort).toBe(2);
      expect(stray.stderr).toMatch(/sort: .* has an empty item/);
    }
    const pub = await svc("entries", "publish", "posts", post.json.id, "-w", "demo");
    expect(pub.json._status).toBe("published");
    expect(pub.json._published_at).toMatch(/\.\d{3}Z$/);
    expect((await svc("entries", "unpublish", "posts", post.json.id, "-w", "demo")).json._status).toBe("draft");
    // --values (not --data, the global data-directory flag) takes the fields as one JSON object.
    const fromJson = await svc("entries", "create", "posts", "-w", "demo", "--values", JSON.stringify({ title: "From JSON", views: 5 }));
    expect(fromJson.code, fromJson.stderr).toBe(0);
    expect(fromJson.json).toMatchObject({ title: "From JSON", views: 5 });
    const invalid = await svc("entries", "create", "posts", "-w", "demo", "--field", "views=lots");
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/views: must be a finite number/);
    // A field name is a key, never a prototype: __proto__ is refused by name, not silently lost.
    const proto = await svc("entries", "create", "posts", "-w", "demo", "--field", "title=T", "--field", "__proto__=x");
    expect(proto.code).toBe(1);
    expect(proto.stderr).toMatch(/__proto__: unknown field of collection posts/);
  });
});
