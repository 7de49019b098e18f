/**
 * Durable delivery in process (docs/webhooks.md "Durable delivery"): events go through the outbox
 * table, coalescing and debounce (spec 6.7) hold, windows survive a restart, several instances
 * on one database send each delivery once, and the default mode writes nothing to the outbox.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/database.js";
import { callerAt, scenario, type Result } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";
import { outboxStates, seed, sleep, startDurable, steppedClock, verified, type Running } from "./durable-helpers.js";

describe.each(drivers)("durable webhook delivery on %s", (driver) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  const database = async (): Promise<TestDatabase> => {
    const db = await createTestDatabase(driver);
    cleanup.push(() => db.cleanup());
    return db;
  };
  const receiver = async (...args: Parameters<typeof startReceiver>): Promise<Receiver> => {
    const r = await startReceiver(...args);
    cleanup.push(() => r.close());
    return r;
  };
  const start = async (db: TestDatabase, options: Parameters<typeof startDurable>[2] = {}): Promise<Running> => {
    const r = await startDurable(db.url, db.dataDir, options);
    cleanup.push(() => r.close());
    return r;
  };

  it("delivers HTTP writes from the outbox, signed, coalescing content.updated within 0.5 s", async () => {
    const db = await database();
    const hooks = await receiver();
    const r = await start(db);
    const s = await seed(r, hooks);
    const owner = callerAt(r.base, s.owner);
    const { id } = (await owner.post("/api/dashboard/collections/posts/entries", { title: "v1" })).expectStatus(201).body;
    await hooks.waitFor(1);
    for (const title of ["v2", "v3", "v4"]) (await owner.patch(`/api/dashboard/collections/posts/entries/${id}`, { title })).expectStatus(200);
    await hooks.waitFor(2);
    await sleep(700);
    const bodies = hooks.requests.map((q) => verified(q, s.secret));
    expect(bodies.map((b) => b.event)).toEqual(["content.created", "content.updated"]);
    expect(bodies[1].data.entry).toMatchObject({ id, title: "v4" });
    expect(Object.keys(bodies[1]).sort()).toEqual(["data", "event", "timestamp"]);
    await sleep(100);
    // Two deliveries are done; the windows (the created event's and the coalescing one) were handed on and deleted.
    expect(await outboxStates(r.svc)).toEqual({ done: 2 });
  });

  it("records form.submitted in the submission's transaction and delivers it", async () => {
    const db = await database();
    const hooks = await receiver();
    const r = await start(db);
    const s = await seed(r, hooks);
    const owner = callerAt(r.base, s.owner);
    (await owner.post("/api/dashboard/forms", { slug: "contact", name: "Contact", fields: [{ name: "email", type: "string", required: true }] })).expectStatus(201);
    const sent = await owner.post("/api/v1/forms/contact/submit", { email: "a@example.com" });
    expect(sent.status).toBeLessThan(300);
    const [got] = await hooks.waitFor(1);
    const body = verified(got!, s.secret);
    expect(body.event).toBe("form.submitted");
    expect(body.data.form.slug).toBe("contact");
  });

  it("keeps a debounced window across a restart and delivers it once the window closes", async () => {
    const db = await database();
    const hooks = await receiver();
    const first = await startDurable(db.url, db.dataDir);
    const s = await seed(first, hooks, {}, { debounce_ms: 1500 });
    (await callerAt(first.base, s.owner).post("/api/dashboard/collections/posts/entries", { title: "kept", _status: "published" })).expectStatus(201);
    const wrote = Date.now();
    await first.close(); // graceful: the windows stay in the table instead of being flushed
    expect(hooks.requests).toHaveLength(0);
    await sleep(300);
    const second = await start(db);
    await hooks.waitFor(2, 5000);
    const elapsed = Math.min(...hooks.requests.map((q) => q.at)) - wrote;
    expect(elapsed).toBeGreaterThanOrEqual(1450); // spec 6.7.4: exactly debounce_ms for these events
    expect(hooks.requests.map((q) => verified(q, s.secret).event).sort()).toEqual(["content.created", "content.published"]);
    await sleep(200);
    expect(hooks.requests).toHaveLength(2);
    expect(await outboxStates(second.svc)).toEqual({ done: 2 });
  });

  it("holds spec 6.7 with a clock the test moves: trailing per-entry windows, updated waits debounce_ms + 0.5 s", async () => {
    const db = await database();
    const hooks = await receiver();
    const clock = steppedClock();
    const r = await start(db, { webhooks: { clock } });
    const s = await seed(r, hooks, { events: ["content.updated", "content.published"] }, { debounce_ms: 600_000, debounce_scope: "entry" });
    const owner = callerAt(r.base, s.owner);
    const a = (await owner.post("/api/dashboard/collections/posts/entries", { title: "a0" })).body.id;
    const b = (await owner.post("/api/dashboard/collections/posts/entries", { title: "b0" })).body.id;
    const patch = (id: string, body: Record<string, unknown>) => owner.patch(`/api/dashboard/collections/posts/entries/${id}`, body);
    const tick = async (ms: number) => (clock.advance(ms), sleep(250));

    await patch(a, { title: "a1" });
    await patch(b, { title: "b1" });
    await patch(b, { _status: "published" });
    await tick(600); // coalescing windows close; debounce windows of 10 min open
    await tick(9 * 60_000);
    await patch(a, { title: "a2" }); // entry scope: moves a's window only, and replaces its payload
    await tick(600);
    await tick(58_700); // clock at t0 + 599.9 s
    expect(hooks.requests).toHaveLength(0);
    await tick(200); // b's published window: exactly 600 s after its event
    await hooks.waitFor(1, 3000);
    expect(hooks.requests.map((q) => verified(q, s.secret).event)).toEqual(["content.published"]);
    await tick(300); // t0 + 600.4 s: b's update waits 600 s + 0.5 s
    expect(hooks.requests).toHaveLength(1);
    await tick(200);
    await hooks.waitFor(2, 3000);
    expect(verified(hooks.requests[1]!, s.secret).data.entry).toMatchObject({ id: b, title: "b1" });
    await tick(8 * 60_000 + 60_000); // t0 + 1140.6 s: a's window moved by its second update (t0 + 540.6 s)
    expect(hooks.requests).toHaveLength(2);
    await tick(600);
    await hooks.waitFor(3, 3000);
    const last = verified(hooks.requests[2]!, s.secret);
    expect(last.event).toBe("content.updated");
    expect(last.data.entry).toMatchObject({ id: a, title: "a2" }); // the latest state; a1 never sent
    await sleep(300);
    expect(hooks.requests).toHaveLength(3);
  });

  it("debounce_scope webhook collapses every entry of one event name into one delivery", async () => {
    const db = await database();
    const hooks = await receiver();
    const clock = steppedClock();
    const r = await start(db, { webhooks: { clock } });
    const s = await seed(r, hooks, { events: ["content.created"] }, { debounce_ms: 120_000, debounce_scope: "webhook" });
    const owner = callerAt(r.base, s.owner);
    for (const title of ["x", "y", "z"]) {
      (await owner.post("/api/dashboard/collections/posts/entries", { title })).expectStatus(201);
      clock.advance(10);
    }
    await sleep(250);
    clock.advance(119_900);
    await sleep(300);
    expect(hooks.requests).toHaveLength(0);
    clock.advance(200);
    const [got] = await hooks.waitFor(1, 3000);
    expect(verified(got!, s.secret).data.entry.title).toBe("z");
    await sleep(300);
    expect(hooks.requests).toHaveLength(1);
  });

  it("retries a failing receiver (3 attempts, 1 s and 2 s apart), then marks the delivery dropped", async () => {
    const db = await database();
    const hooks = await receiver((_req, res) => ((res.statusCode = 500), res.end("no")));
    const r = await start(db);
    const s = await seed(r, hooks, { events: ["content.created"] });
    (await callerAt(r.base, s.owner).post("/api/dashboard/collections/posts/entries", { title: "t" })).expectStatus(201);
    const got = await hooks.waitFor(3, 6000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(950);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(1950);
    await sleep(300);
    expect(hooks.requests).toHaveLength(3);
    expect(await outboxStates(r.svc)).toEqual({ dropped: 1 });
  });

  it("two instances on one database send each delivery exactly once", async () => {
    const db = await database();
    const hooks = await receiver();
    const one = await start(db);
    const two = await start(db);
    const s = await seed(one, hooks, { events: ["content.created", "content.updated"] });
    const writes: Promise<Result>[] = [];
    for (let i = 0; i < 30; i++) writes.push(callerAt(i % 2 ? one.base : two.base, s.owner).post("/api/dashboard/collections/posts/entries", { title: `n${i}` }));
    const ids = await Promise.all(writes.map(async (w) => ((await w).status === 201 ? (await w).body.id : "")));
    expect(ids.every(Boolean)).toBe(true);
    await hooks.waitFor(30, 10_000);
    await sleep(800);
    const seen = hooks.requests.map((q) => verified(q, s.secret).data.entry.id);
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it("is off by default: deliveries stay in memory and the outbox stays empty", async () => {
    const hooks = await receiver();
    const sc = await scenario(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    cleanup.push(() => sc.close());
    const ws = await sc.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    const owner = sc.as(await dashboardToken(sc.svc.context, ws.id, "owner"));
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    (await owner.post("/api/dashboard/webhooks", { url: hooks.url(), events: ["content.created"] })).expectStatus(201);
    (await owner.post("/api/dashboard/collections/posts/entries", { title: "t" })).expectStatus(201);
    sc.expectEvents(["content.created"]);
    await hooks.waitFor(1);
    expect(sc.svc.context.outbox).toBeUndefined();
    expect(await outboxStates(sc.svc)).toEqual({});
  });
});
