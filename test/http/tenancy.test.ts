/**
 * Tenancy (spec 1): the hostname is the only scope; unknown hosts are 404 Unknown tenant everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";

describe.each(drivers)("tenancy on %s", (driver) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(driver);
    await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", "localhost"] });
    await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.example.com"] });
  });
  afterAll(() => t?.close());

  it.each(["/api/v1/posts", "/api/dashboard/sdk", "/api/mcp", "/", "/index.html", "/api/v1/media/x"])(
    "answers 404 Unknown tenant for an unknown host on %s",
    async (path) => {
      const res = await t.request(path, { host: "nope.example" });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ error: "Unknown tenant" });
    },
  );

  it.each(["demo.localhost", "DEMO.LocalHost", "demo.localhost:3000", "demo.localhost.", "localhost:8080"])(
    "resolves %s to the demo workspace (case, port, trailing dot)",
    async (host) => {
      const res = await t.request("/api/v1/does-not-exist-route/a/b/c", { host });
      expect(res.status).toBe(404);
      expect((await res.json()).error).not.toBe("Unknown tenant");
    },
  );

  it("answers 404 Unknown tenant for a malformed Host", async () => {
    const res = await t.request("/api/v1/posts", { host: "bad host!" });
    expect(await res.json()).toEqual({ error: "Unknown tenant" });
  });

  it("ignores X-Forwarded-Host unless the proxy is trusted", async () => {
    const res = await t.request("/api/v1/x/y/z", { host: "nope.example", headers: { "x-forwarded-host": "demo.localhost" } });
    expect(await res.json()).toEqual({ error: "Unknown tenant" });
  });

  it("serves a workspace created after start on the very next request", async () => {
    expect((await (await t.request("/api/x/y", { host: "late.example.com" })).json()).error).toBe("Unknown tenant");
    await t.svc.context.workspaces.create({ slug: "late", hosts: ["late.example.com"] });
    expect((await (await t.request("/api/x/y", { host: "late.example.com" })).json()).error).not.toBe("Unknown tenant");
  });

  it("has health probes outside tenancy", async () => {
    expect((await t.request("/healthz", { host: "anything.example" })).status).toBe(200);
    const ready = await t.request("/readyz", { host: "anything.example" });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { database: "ok" } });
  });
});

describe("tenancy behind a trusted proxy", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer("sqlite", { trustProxy: true });
    await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
  });
  afterAll(() => t?.close());

  it("reads X-Forwarded-Host when trustProxy is on", async () => {
    const res = await t.request("/api/x/y/z", { host: "internal:8080", headers: { "x-forwarded-host": "Demo.Localhost" } });
    expect((await res.json()).error).not.toBe("Unknown tenant");
  });
});
