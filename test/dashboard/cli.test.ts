/**
 * The dashboard from the CLI (the built `svc`): workspaces get, show and change a dashboard host;
 * `svc serve` prints the demo's dashboard URL, and `--no-dashboard` turns the dashboard off.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startInstance } from "../scale/helpers.js";

const run = promisify(execFile);
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-dash-cli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const svc = async (data: string, ...args: string[]) => (await run(process.execPath, ["bin/svc.mjs", "--data", data, ...args], { env: { ...process.env, NO_COLOR: "1" } })).stdout;

describe("dashboard hosts in the CLI", () => {
  it("workspaces create --dashboard-host, update --dashboard-host, and list show it", async () => {
    const data = dataDir();
    const created = JSON.parse(await svc(data, "--json", "workspaces", "create", "site", "--host", "site.example.com"));
    expect(created).toMatchObject({ slug: "site", hosts: ["site.example.com"], dashboard_host: "admin.site.example.com" });
    const other = JSON.parse(await svc(data, "--json", "workspaces", "create", "other", "--host", "other.example.com", "--dashboard-host", "cms.other.example.com"));
    expect(other.dashboard_host).toBe("cms.other.example.com");
    const updated = JSON.parse(await svc(data, "--json", "workspaces", "update", "site", "--dashboard-host", "console.site.example.com"));
    expect(updated.dashboard_host).toBe("console.site.example.com");
    const listed = await svc(data, "workspaces", "list");
    expect(listed).toContain("site\tsite.example.com\tdashboard console.site.example.com");
    expect(listed).toContain("other\tother.example.com\tdashboard cms.other.example.com");
  });

  it("svc serve prints the demo's dashboard URL, which serves the dashboard", async () => {
    const instance = await startInstance({ dataDir: dataDir() });
    try {
      const [, url] = await instance.waitForOutput(/dashboard\s+(http:\/\/admin\.localhost:(\d+)\/_\/)/);
      expect(url).toBe(`http://admin.localhost:${instance.port}/_/`);
      const res = await instance.request("/_/", { host: `admin.localhost:${instance.port}` });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="app">');
    } finally {
      await instance.stop();
    }
  });

  it("svc serve --no-dashboard prints no dashboard URL and answers 404 at /_/", async () => {
    const instance = await startInstance({ dataDir: dataDir(), args: ["--no-dashboard"] });
    try {
      await instance.waitForOutput(/owner sign-in/);
      expect(instance.output()).not.toMatch(/dashboard\s+http/);
      const res = await instance.request("/_/", { host: "admin.localhost" });
      expect(res.status).toBe(404);
    } finally {
      await instance.stop();
    }
  });
});
