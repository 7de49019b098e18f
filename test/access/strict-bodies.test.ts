/**
 * Access-control bodies refuse fields they do not take (a typo is an error, never a silently
 * weaker key), and signups are rate-limited like sign-ins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropMail, startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";

describe.each(drivers)("strict access-control bodies on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer(driver, { sendMail: dropMail });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"], identity: true, selfSignup: true });
    owner = await dashboardToken(t.svc.context, ws.id, "owner");
  });
  afterAll(() => t?.close());

  it.each([
    ["/api/dashboard/keys", { name: "site", grant: ["entries:read"] }, "grant"],
    ["/api/dashboard/members", { email: "m@example.com", password: "correct horse battery", grant: ["entries:read"] }, "grant"],
  ])("POST %s refuses an unknown field with 400 naming it", async (path, json, field) => {
    const res = await t.request(path, { method: "POST", token: owner, json });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field, error: expect.stringContaining(field) });
    const keys = await (await t.request("/api/dashboard/keys", { token: owner })).json();
    expect(keys.data).toEqual([]);
  });

  it("rate-limits signups per account like sign-ins", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await t.request("/api/v1/accounts/signup", { method: "POST", json: { email: "same@example.com", password: "correct horse battery" } })).status);
    }
    expect(statuses[0]).toBe(201);
    expect(statuses.slice(1, 10).every((s) => s === 409)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
