/**
 * Dashboard hosts of workspaces: `admin.<first named host>` by default, configurable, unique
 * across every workspace's hosts, and given to existing workspaces by migration 008.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { migrate } from "../../src/storage/migrate.js";
import { migrations } from "../../src/storage/migrations/index.js";
import { openDatabase } from "../../src/storage/open.js";
import { createTestDatabase } from "../helpers/database.js";
import { defaultDashboardHost } from "../../src/core/tenancy.js";

describe("defaultDashboardHost", () => {
  it("prefixes the first named host and skips IP literals", () => {
    expect(defaultDashboardHost(["localhost", "demo.localhost"])).toBe("admin.localhost");
    expect(defaultDashboardHost(["127.0.0.1", "[::1]", "example.com"])).toBe("admin.example.com");
    expect(defaultDashboardHost(["127.0.0.1"])).toBeUndefined();
  });
});

describe.each(drivers)("workspace dashboard hosts on %s", (driver) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(driver);
  });
  afterAll(() => t?.close());

  it("defaults, configures, lists and moves the dashboard host", async () => {
    const ws = t.svc.context.workspaces;
    const a = await ws.create({ slug: "a", hosts: ["a.example.com", "b.example.com"] });
    expect(a).toMatchObject({ hosts: ["a.example.com", "b.example.com"], dashboard_host: "admin.a.example.com" });
    const c = await ws.create({ slug: "c", hosts: ["c.example.com"], dashboardHost: "Console.C.Example.com" });
    expect(c.dashboard_host).toBe("console.c.example.com");
    expect((await ws.list()).map((w) => w.dashboard_host)).toEqual(["admin.a.example.com", "console.c.example.com"]);
    expect((await ws.byHost("console.c.example.com"))).toMatchObject({ slug: "c", onDashboardHost: true, dashboardHost: "console.c.example.com" });
    expect((await ws.byHost("c.example.com"))).toMatchObject({ slug: "c", onDashboardHost: false, dashboardHost: "console.c.example.com" });

    await ws.setDashboardHost(c.id, "admin.c.example.com");
    expect((await ws.bySlug("c"))!.dashboard_host).toBe("admin.c.example.com");
    expect(await ws.byHost("console.c.example.com")).toBeUndefined();
  });

  it("refuses a dashboard host that already addresses a workspace (409) or equals a site host (400)", async () => {
    const ws = t.svc.context.workspaces;
    await expect(ws.create({ slug: "d", hosts: ["d.example.com"], dashboardHost: "a.example.com" })).rejects.toMatchObject({ status: 409 });
    await expect(ws.create({ slug: "e", hosts: ["admin.a.example.com"] })).rejects.toMatchObject({ status: 409, message: "Host admin.a.example.com already belongs to a workspace" });
    await expect(ws.create({ slug: "f", hosts: ["f.example.com"], dashboardHost: "f.example.com" })).rejects.toMatchObject({ status: 400 });
    const a = (await ws.bySlug("a"))!;
    await expect(ws.setDashboardHost(a.id, "c.example.com")).rejects.toMatchObject({ status: 409 });
    expect((await ws.bySlug("a"))!.dashboard_host).toBe("admin.a.example.com");
  });
});

describe.each(drivers)("migration 008 on %s", (driver) => {
  it("gives existing workspaces admin.<first named host>, skipping taken names and IP-only workspaces", async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    try {
      await migrate(sql, migrations.filter((m) => m.id < 8));
      const add = async (id: string, hosts: string[]) => {
        await sql.run("INSERT INTO workspaces (id, slug, name, identity, created_at) VALUES (?, ?, ?, 0, ?)", [id, id, id, new Date().toISOString()]);
        for (const h of hosts) await sql.run("INSERT INTO workspace_hosts (host, workspace_id) VALUES (?, ?)", [h, id]);
      };
      await add("w1", ["b.example.com", "a.example.com"]);
      await add("w2", ["127.0.0.1"]);
      await add("w3", ["x.example.com"]);
      await add("w4", ["admin.x.example.com"]);
      expect(await migrate(sql)).toContain(8);
      const rows = await sql.all<{ host: string; workspace_id: string }>("SELECT host, workspace_id FROM workspace_hosts WHERE dashboard = 1 ORDER BY host");
      expect(rows).toEqual([
        { host: "admin.a.example.com", workspace_id: "w1" },
        { host: "admin.admin.x.example.com", workspace_id: "w4" },
      ]);
    } finally {
      await sql.close();
      await db.cleanup();
    }
  });
});
