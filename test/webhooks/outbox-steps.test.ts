/**
 * Durable delivery (the SQL outbox) at its edges: a step of a row that fails (a brief database or
 * lookup error) is retried a few seconds later, never held with its lease renewed until the
 * instance stops; close() gives back what it has not attempted and keeps the leases of what it
 * still sends; a debounce window re-armed sooner still sends its latest event.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceEvent } from "../../src/core/events.js";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { createWorkspaceRepo } from "../../src/storage/workspaces.js";
import { createDispatcher, type WebhookSource, type WebhookTarget } from "../../src/webhooks/index.js";
import { createOutboxWindows, type OutboxWindowsOptions } from "../../src/webhooks/outbox-windows.js";
import { startRereadAttempt } from "../../src/webhooks/reread-before-send.js";
import { createTestDatabase, drivers } from "../helpers/database.js";
import { CA, captureLogger, contentEvent, entryId, sleep, startReceiver, target } from "./helpers.js";

describe.each(drivers)("outbox steps that fail on %s", (driver) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  /** A dispatcher on a fresh outbox whose source fails its first `targetsFor` or `current` call. */
  const rig = async (failing: "targetsFor" | "current", store: Partial<OutboxWindowsOptions> = {}) => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    cleanup.push(() => db.cleanup(), () => sql.close());
    await migrate(sql);
    const workspace = await createWorkspaceRepo(sql).create({ slug: "demo", hosts: ["demo.localhost"] });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook: WebhookTarget = target(receiver.url(), { workspaceId: workspace.id });
    let failures = 0;
    const failOnce = () => {
      if (failures++ === 0) throw new Error("connection terminated unexpectedly");
    };
    const source: Required<WebhookSource> = {
      targetsFor: async () => (failing === "targetsFor" && failOnce(), [hook]),
      current: async () => (failing === "current" && failOnce(), hook),
    };
    const logger = captureLogger();
    // The default lease (30 s) on purpose: a retry must not wait for it.
    const windows = createOutboxWindows({ sql, pollMs: 40, retryMs: 150, ...store });
    const dispatcher = createDispatcher({ source, windows, allowPrivateTargets: true, ca: CA, retryDelaysMs: [], logger });
    cleanup.push(() => dispatcher.close({ graceMs: 500 }));
    const emit = (event: ServiceEvent) => sql.transaction((tx) => dispatcher.record!(tx, [event]));
    const event = { ...contentEvent("content.published", entryId(1), { title: "t" }), workspaceId: workspace.id };
    return { receiver, emit, event, logger, failures: () => failures };
  };

  it("a failed webhooks lookup at a window's close is retried in a few seconds, not after the instance stops", async () => {
    const { receiver, emit, event, logger, failures } = await rig("targetsFor");
    await emit(event);
    await receiver.waitFor(1, 3000);
    expect(failures()).toBe(2);
    expect(logger.text()).toContain("retried in a few seconds");
  });

  it("a failed re-read before a stored delivery's attempt is retried in a few seconds", async () => {
    const { receiver, emit, event, failures } = await rig("current");
    await emit(event);
    await receiver.waitFor(1, 3000);
    expect(failures()).toBeGreaterThanOrEqual(2);
  });
});

describe.each(drivers)("closing a durable dispatcher on %s", (driver) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  const database = async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    cleanup.push(() => db.cleanup(), () => sql.close());
    await migrate(sql);
    const workspace = await createWorkspaceRepo(sql).create({ slug: "demo", hosts: ["demo.localhost"] });
    return { sql, workspaceId: workspace.id };
  };

  it("a delivery whose re-read was under way at close is given back, not attempted", async () => {
    const { sql, workspaceId } = await database();
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook = target(receiver.url(), { workspaceId });
    let answer: () => void = () => undefined;
    let reading = false;
    const source: Required<WebhookSource> = {
      targetsFor: async () => [hook],
      current: () => ((reading = true), new Promise((resolve) => (answer = () => resolve(hook)))),
    };
    const dispatcher = createDispatcher({ source, windows: createOutboxWindows({ sql, pollMs: 20 }), allowPrivateTargets: true, ca: CA, retryDelaysMs: [], logger: captureLogger() });
    await sql.transaction((tx) => dispatcher.record!(tx, [{ ...contentEvent("content.published", entryId(1), { title: "t" }), workspaceId }]));
    await expect.poll(() => reading, { timeout: 3000 }).toBe(true);
    const closed = dispatcher.close({ graceMs: 500 });
    await sleep(20);
    answer();
    await closed;
    await sleep(100);
    expect(receiver.requests).toHaveLength(0);
    const rows = await sql.all<{ kind: string; state: string; claimed_by: string | null }>("SELECT kind, state, claimed_by FROM webhook_outbox WHERE kind = 'delivery'");
    expect(rows).toEqual([{ kind: "delivery", state: "pending", claimed_by: null }]);
  });

  it("a delivery in its grace period keeps its lease: another instance does not claim it and send it again", async () => {
    const { sql, workspaceId } = await database();
    // The receiver answers slowly, well past the lease.
    const receiver = await startReceiver((_req, res) => void setTimeout(() => res.end("ok"), 1500));
    cleanup.push(() => receiver.close());
    const hook = target(receiver.url(), { workspaceId });
    const source: Required<WebhookSource> = { targetsFor: async () => [hook], current: async () => hook };
    const instance = () => {
      const dispatcher = createDispatcher({
        source,
        windows: createOutboxWindows({ sql, pollMs: 20, leaseMs: 400 }),
        allowPrivateTargets: true,
        ca: CA,
        retryDelaysMs: [],
        logger: captureLogger(),
      });
      cleanup.push(() => dispatcher.close({ graceMs: 500 }));
      return dispatcher;
    };
    const a = instance();
    await sql.transaction((tx) => a.record!(tx, [{ ...contentEvent("content.published", entryId(1), { title: "t" }), workspaceId }]));
    await receiver.waitFor(1, 3000);
    const closed = a.close({ graceMs: 3000 });
    instance(); // polls every 20 ms while A's attempt is still running
    await closed;
    await sleep(300);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe("the re-read before an attempt", () => {
  it("ends at once when aborted while the read hangs, and never starts the attempt", async () => {
    let answer: (t: WebhookTarget) => void = () => undefined;
    const hook = target("https://example.com/hook");
    const source = { current: () => new Promise<WebhookTarget | undefined>((resolve) => (answer = resolve)) };
    let started = 0;
    const attempt = startRereadAttempt(source, hook, "content.published", () => {
      started++;
      return { done: new Promise(() => undefined), abort: () => undefined };
    });
    await sleep(10);
    attempt.abort("dispatcher closed");
    const outcome = await Promise.race([attempt.done, sleep(1000).then(() => "hung" as const)]);
    expect(outcome).toMatchObject({ ok: false, error: "dispatcher closed" });
    answer(hook);
    await sleep(10);
    expect(started).toBe(0);
  });
});

describe.each(drivers)("a durable debounce window re-armed sooner on %s", (driver) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  it("spec 6.7.3: after the webhook's debounce_ms is lowered, the next event replaces the held one and is sent at the new, earlier time", async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    cleanup.push(() => db.cleanup(), () => sql.close());
    await migrate(sql);
    const { id: workspaceId } = await createWorkspaceRepo(sql).create({ slug: "demo", hosts: ["demo.localhost"] });
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const hook = target(receiver.url(), { workspaceId, debounceMs: 3_600_000, debounceScope: "entry" });
    const source: Required<WebhookSource> = { targetsFor: async () => [hook], current: async () => hook };
    const dispatcher = createDispatcher({ source, windows: createOutboxWindows({ sql, pollMs: 20 }), allowPrivateTargets: true, ca: CA, retryDelaysMs: [], logger: captureLogger() });
    cleanup.push(() => dispatcher.close({ graceMs: 500 }));
    const emit = (title: string) => sql.transaction((tx) => dispatcher.record!(tx, [{ ...contentEvent("content.published", entryId(1), { title }), workspaceId }]));
    await emit("held an hour");
    await expect.poll(async () => Number((await sql.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM webhook_outbox WHERE webhook_id IS NOT NULL"))!.n), { timeout: 3000 }).toBe(1);
    hook.debounceMs = 200;
    await emit("latest");
    await receiver.waitFor(1, 3000);
    await sleep(300);
    expect(receiver.requests.map((r) => JSON.parse(r.raw.toString()).data.entry.title)).toEqual(["latest"]);
  });
});
