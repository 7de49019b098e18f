/**
 * Abuse limits not covered elsewhere, so one tenant cannot exhaust shared resources. Already
 * tested: the login limits (test/access/dashboard.test.ts, accounts.test.ts, cluster-wide in
 * test/scale/instances.test.ts), the form submit limit (test/forms/submit.test.ts) and the
 * dispatcher's maxPending cap (test/webhooks/debounce.test.ts). Here: at most 50 webhooks per
 * workspace, with a clear 400, per workspace, and room again after a delete.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_WEBHOOKS_PER_WORKSPACE } from "../../src/storage/webhooks.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";

describe.each(drivers)("webhooks per workspace on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let otherOwner: string;
  beforeAll(async () => {
    t = await startTestServer(driver, { allowPrivateWebhookTargets: true });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const other = await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = await dashboardToken(t.svc.context, ws.id);
    otherOwner = await dashboardToken(t.svc.context, other.id);
  });
  afterAll(() => t?.close());

  const create = (token: string, host = "demo.localhost", i = 0) =>
    t.request("/api/dashboard/webhooks", { method: "POST", host, token, json: { url: `https://127.0.0.1:9/hook/${i}`, events: ["content.created"] } });

  it(`refuses webhook ${MAX_WEBHOOKS_PER_WORKSPACE + 1} with a clear 400; other workspaces and deletes are unaffected`, async () => {
    expect(MAX_WEBHOOKS_PER_WORKSPACE).toBe(50);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) {
      const res = await create(owner, "demo.localhost", i);
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const refused = await create(owner);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "A workspace can have at most 50 webhooks" });
    expect((await create(otherOwner, "other.localhost")).status).toBe(201);
    expect((await t.request(`/api/dashboard/webhooks/${ids[0]}`, { method: "DELETE", token: owner })).status).toBe(204);
    expect((await create(owner)).status).toBe(201);
    expect((await create(owner)).status).toBe(400);
  });

  it("concurrent creates cannot overshoot the cap", async () => {
    const fresh = await t.svc.context.workspaces.create({ slug: "race", hosts: ["race.localhost"] });
    const token = await dashboardToken(t.svc.context, fresh.id);
    const results = await Promise.all(Array.from({ length: 70 }, (_, i) => create(token, "race.localhost", i).then((r) => r.status)));
    expect(results.filter((s) => s === 201)).toHaveLength(50);
    expect(results.filter((s) => s !== 201 && s !== 400 && s !== 503)).toEqual([]);
    const list = await t.request("/api/dashboard/webhooks", { host: "race.localhost", token });
    const body = (await list.json()) as unknown[] | { data: unknown[] };
    expect(Array.isArray(body) ? body.length : body.data.length).toBe(50);
  });
});
