/**
 * Spec 3: an API key is active from creation until revoked; keys never expire and never rotate
 * automatically. The service clock is moved years ahead; the key still works, unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { apiKey } from "../helpers/sessions.js";

describe.each(drivers)("API key lifetime on %s", (driver) => {
  let t: TestServer;
  let offset = 0;
  beforeAll(async () => {
    t = await startTestServer(driver, { now: () => Date.now() + offset });
  });
  afterAll(() => t?.close());

  it("never expires and never rotates: still valid ten years on", async () => {
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const key = await apiKey(t.svc.context, ws.id, ["collections:read"]);
    const before = await t.svc.context.sql.get("SELECT key_hash, grants, revoked_at FROM api_keys");
    expect((await t.request("/api/dashboard/collections", { token: key })).status).toBe(200);
    offset = 10 * 365 * 24 * 3600 * 1000;
    expect((await t.request("/api/dashboard/collections", { token: key })).status).toBe(200);
    expect(await t.svc.context.sql.get("SELECT key_hash, grants, revoked_at FROM api_keys")).toEqual(before);
  });
});
