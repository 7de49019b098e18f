/**
 * Identity settings are owner-only (spec 5.5) and take effect on the next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropMail, startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { ALL_GRANTS } from "../../src/core/grants.js";

describe.each(drivers)("identity settings on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let wsId: string;
  beforeAll(async () => {
    t = await startTestServer(driver, { sendMail: dropMail });
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
  });
  afterAll(() => t?.close());

  it("refuses keys and members whatever their grants", async () => {
    for (const token of [await apiKey(t.svc.context, wsId, [...ALL_GRANTS]), await dashboardToken(t.svc.context, wsId, "member", [...ALL_GRANTS])]) {
      expect((await t.request("/api/dashboard/identity", { token })).status).toBe(403);
      expect((await t.request("/api/dashboard/identity", { method: "PUT", token, json: { enabled: false } })).status).toBe(403);
    }
  });

  it("switches Identity off and on; account routes follow on the next request", async () => {
    const signup = await t.request("/api/v1/accounts/signup", { method: "POST", json: { email: "a@example.com", password: "correct horse battery" } });
    expect(signup.status).toBeLessThan(300);
    const login = await (await t.request("/api/v1/accounts/login", { method: "POST", json: { email: "a@example.com", password: "correct horse battery" } })).json();
    expect((await t.request("/api/v1/accounts/me", { token: login.token })).status).toBe(200);

    expect(await (await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json: { enabled: false } })).json()).toEqual({ enabled: false, self_signup: true });
    expect(await (await t.request("/api/dashboard/identity", { token: owner })).json()).toEqual({ enabled: false, self_signup: true });
    expect((await t.request("/api/v1/accounts/me", { token: login.token })).status).toBeGreaterThanOrEqual(400);

    await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json: { enabled: true } });
    expect((await t.request("/api/v1/accounts/me", { token: login.token })).status).toBe(200);
  });

  it("validates the body", async () => {
    for (const json of [{}, { enabled: "yes" }, { enabled: true, other: 1 }, { self_signup: 1 }]) {
      expect((await t.request("/api/dashboard/identity", { method: "PUT", token: owner, json })).status).toBe(400);
    }
  });
});
