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
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";

describe.each(drivers)("webhooks per workspace on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let otherOwner: Caller;
  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    owner = s.as(await dashboardToken(s.svc.context, ws.id));
    otherOwner = s.as(await dashboardToken(s.svc.context, other.id), { host: "other.localhost" });
  });
  afterAll(() => s?.close());

  const create = (as: Caller, i = 0) => as.post("/api/dashboard/webhooks", { url: `https://127.0.0.1:9/hook/${i}`, events: ["content.created"] });

  it(`refuses webhook ${MAX_WEBHOOKS_PER_WORKSPACE + 1} with a clear 400; other workspaces and deletes are unaffected`, async () => {
    expect(MAX_WEBHOOKS_PER_WORKSPACE).toBe(50);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) {
      ids.push((await create(owner, i)).expectStatus(201).body.id as string);
    }
    expect((await create(owner)).expectStatus(400).body).toEqual({ error: "A workspace can have at most 50 webhooks" });
    (await create(otherOwner)).expectStatus(201);
    (await owner.delete(`/api/dashboard/webhooks/${ids[0]}`)).expectStatus(204);
    (await create(owner)).expectStatus(201);
    (await create(owner)).expectStatus(400);
  });

  it("concurrent creates cannot overshoot the cap", async () => {
    const fresh = await s.svc.context.workspaces.create({ slug: "race", hosts: ["race.localhost"] });
    const racer = s.as(await dashboardToken(s.svc.context, fresh.id), { host: "race.localhost" });
    const results = await Promise.all(Array.from({ length: 70 }, (_, i) => create(racer, i).then((r) => r.status)));
    expect(results.filter((status) => status === 201)).toHaveLength(50);
    expect(results.filter((status) => status !== 201 && status !== 400 && status !== 503)).toEqual([]);
    const body = (await racer.get("/api/dashboard/webhooks")).body as unknown[] | { data: unknown[] };
    expect(Array.isArray(body) ? body.length : body.data.length).toBe(50);
  });
});
