/**
 * `svc members create` (also `svc users create`) and `svc keys create|list|revoke|import-legacy`
 * (DESIGN §4.1): exact --json shapes, run in-process against the same database a live server
 * uses — a key revoked from the CLI is refused by the server on its very next request.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ALL_GRANTS, LEGACY_KEY_GRANTS } from "../../src/core/grants.js";
import { hashToken } from "../../src/core/keys.js";
import { runCli } from "../../src/cli/index.js";
import { drivers } from "../helpers/database.js";
import { grantPath, PASSWORD, startAccessRig, type AccessRig } from "./helpers.js";

async function svc(rig: AccessRig, ...args: string[]): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: any) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: any) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(["--data", rig.t.db.dataDir, "--database", rig.t.db.url, "--json", ...args]);
    let json: unknown;
    try {
      json = stdout ? JSON.parse(stdout) : undefined;
    } catch {
      json = undefined;
    }
    return { code, json, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f-]{36}$/;

describe.each(drivers)("svc users/keys --json on %s", (driver) => {
  let rig: AccessRig;
  beforeAll(async () => {
    rig = await startAccessRig(driver);
  });
  afterAll(() => rig?.close());

  it("users create → {id, email, role, grants}; the user can sign in", async () => {
    const r = await svc(rig, "users", "create", "-w", "demo", "--email", "Cli@Example.com", "--password", PASSWORD, "--role", "member", "--grant", "entries:write", "media:read");
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ id: expect.stringMatching(UUID), email: "cli@example.com", role: "member", grants: ["entries:write", "media:read"] });
    const { role } = await rig.login("cli@example.com");
    expect(role).toBe("member");
    const owner = await svc(rig, "users", "create", "-w", "demo", "--email", "o@example.com", "--password", PASSWORD, "--role", "owner");
    expect(owner.json).toEqual({ id: expect.stringMatching(UUID), email: "o@example.com", role: "owner", grants: [] });
  });

  it("users create refuses a bad role, grant, password or workspace without printing JSON", async () => {
    expect((await svc(rig, "users", "create", "-w", "demo", "--email", "a@b.co", "--password", PASSWORD, "--role", "admin")).code).toBe(2);
    const bad = await svc(rig, "users", "create", "-w", "demo", "--email", "a@b.co", "--password", PASSWORD, "--role", "member", "--grant", "entries:admin");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("entries:admin");
    expect((await svc(rig, "users", "create", "-w", "demo", "--email", "a@b.co", "--password", "short", "--role", "member")).code).toBe(1);
    expect((await svc(rig, "users", "create", "-w", "nope", "--email", "a@b.co", "--password", PASSWORD, "--role", "member")).code).toBe(2);
  });

  it("members create is the same command under its clear name: same output, same refusals", async () => {
    const r = await svc(rig, "members", "create", "-w", "demo", "--email", "Member@Example.com", "--password", PASSWORD, "--role", "member", "--grant", "media:read");
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ id: expect.stringMatching(UUID), email: "member@example.com", role: "member", grants: ["media:read"] });
    expect((await rig.login("member@example.com")).role).toBe("member");
    expect((await svc(rig, "members", "create", "-w", "demo", "--email", "a@b.co", "--password", PASSWORD, "--role", "admin")).code).toBe(2);
  });

  it("keys create → {id, name, grants, collections, published_only, value, created_at}; list never shows values; revoke is seen by the server at once", async () => {
    const c = await svc(rig, "keys", "create", "-w", "demo", "--name", "ci", "--grant", "entries:read", "collections:read");
    expect(c.code).toBe(0);
    expect(c.json).toEqual({
      id: expect.stringMatching(UUID), name: "ci", grants: ["collections:read", "entries:read"], collections: null, published_only: false,
      value: expect.stringMatching(/^pk_[0-9a-f]{64}$/), created_at: expect.stringMatching(ISO),
    });
    expect((await rig.request(grantPath("entries:read"), { token: c.json.value })).status).toBe(200);

    const l = await svc(rig, "keys", "list", "-w", "demo");
    expect(l.code).toBe(0);
    expect(l.stdout).not.toContain(c.json.value.slice(3));
    expect(l.stdout).not.toContain(hashToken(c.json.value));
    const mine = l.json.find((k: { id: string }) => k.id === c.json.id);
    expect(Object.keys(mine).sort()).toEqual(["collections", "created_at", "grants", "id", "last_used_at", "name", "published_only"]);
    expect(mine.name).toBe("ci");

    const none = await svc(rig, "keys", "create", "-w", "demo", "--name", "empty");
    expect(none.json.grants).toEqual([]);

    const rv = await svc(rig, "keys", "revoke", "-w", "demo", c.json.id);
    expect(rv.code).toBe(0);
    expect(rv.json).toEqual({ id: c.json.id, revoked: true });
    const res = await rig.request(grantPath("entries:read"), { token: c.json.value });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
    expect((await svc(rig, "keys", "list", "-w", "demo")).json.some((k: { id: string }) => k.id === c.json.id)).toBe(false);
    expect((await svc(rig, "keys", "revoke", "-w", "demo", "00000000-0000-0000-0000-000000000000")).code).toBe(1);
  });

  it("keys create --collections a,b --published-only narrows the key; list shows it; bad names are refused naming the field", async () => {
    const c = await svc(rig, "keys", "create", "-w", "demo", "--name", "site", "--grant", "entries:read", "--collections", "posts,authors", "--collections", "posts", "--published-only");
    expect(c.code).toBe(0);
    expect(c.json).toMatchObject({ name: "site", grants: ["entries:read"], collections: ["authors", "posts"], published_only: true });
    expect((await rig.request(grantPath("entries:read"), { token: c.json.value })).status).toBe(200);
    const mine = (await svc(rig, "keys", "list", "-w", "demo")).json.find((k: { id: string }) => k.id === c.json.id);
    expect(mine).toMatchObject({ collections: ["authors", "posts"], published_only: true });
    const plain = await svc(rig, "keys", "create", "-w", "demo", "--name", "plain", "--grant", "entries:read");
    expect(plain.json).toMatchObject({ collections: null, published_only: false });
    const bad = await svc(rig, "keys", "create", "-w", "demo", "--name", "bad", "--grant", "entries:read", "--collections", "posts,Bad Name");
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("collections[1]");
  });

  it("keys import-legacy gives old keys exactly the old model's reads (spec 5.4.6, 9.3)", async () => {
    const legacyValue = "pk_" + "ab".repeat(32);
    const second = "pk_" + "cd".repeat(32);
    const file = join(rig.t.db.dataDir, "legacy.txt");
    writeFileSync(file, `# old keys\n${hashToken(second)}\n\n`);
    const r = await svc(rig, "keys", "import-legacy", "-w", "demo", "--hash", hashToken(legacyValue), "--file", file);
    expect(r.code).toBe(0);
    expect(r.json.imported).toHaveLength(2);
    expect(r.json.skipped).toEqual([]);
    for (const k of r.json.imported) expect(k.grants).toEqual([...LEGACY_KEY_GRANTS]);
    const again = await svc(rig, "keys", "import-legacy", "-w", "demo", "--hash", hashToken(legacyValue));
    expect(again.json).toEqual({ imported: [], skipped: [hashToken(legacyValue)] });

    for (const g of ALL_GRANTS) {
      const res = await rig.request(grantPath(g), { token: legacyValue });
      const expected = ["entries:read", "collections:read", "media:read", "forms:read", "submissions:read"].includes(g) ? 200 : 403;
      expect([g, res.status]).toEqual([g, expected]);
    }
    expect((await svc(rig, "keys", "import-legacy", "-w", "demo", "--hash", "xyz")).code).toBe(1);
    expect((await svc(rig, "keys", "import-legacy", "-w", "demo")).code).toBe(2);
  });
});
