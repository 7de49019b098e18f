/**
 * Durable delivery when one step of a row fails (a brief database or lookup error): the row is
 * given back and retried a few seconds later, never held (and its lease renewed) until the
 * instance stops.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceEvent } from "../../src/core/events.js";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { createWorkspaceRepo } from "../../src/storage/workspaces.js";
import { createDispatcher, type WebhookSource, type WebhookTarget } from "../../src/webhooks/index.js";
import { createOutboxWindows, type OutboxWindowsOptions } from "../../src/webhooks/outbox-windows.js";
import { createTestDatabase, drivers } from "../helpers/database.js";
import { CA, captureLogger, contentEvent, entryId, startReceiver, target } from "./helpers.js";

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
