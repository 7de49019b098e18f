/**
 * The SQL outbox window store (durable delivery) through the window store conformance suite, on
 * every test database. Each instance has its own store factory (its own instance id) on one database.
 */
import { describe } from "vitest";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { createWorkspaceRepo } from "../../src/storage/workspaces.js";
import { createDispatcher, type DispatcherOptions } from "../../src/webhooks/index.js";
import { createOutboxWindows } from "../../src/webhooks/outbox-windows.js";
import { createTestDatabase, drivers } from "../helpers/database.js";
import { describeWindowStore } from "./window-store-conformance.js";

const POLL_MS = 40;

describe.each(drivers)("on %s", (driver) => {
  describeWindowStore("SQL outbox", { shared: true, persistent: true, latencyMs: 4 * POLL_MS }, async () => {
    const db = await createTestDatabase(driver);
    const sql = await openDatabase(db.url);
    await migrate(sql);
    const workspace = await createWorkspaceRepo(sql).create({ slug: "demo", hosts: ["demo.localhost"] });
    return {
      workspaceId: workspace.id,
      async instance(options) {
        const dispatcher = createDispatcher({ ...(options as DispatcherOptions), windows: createOutboxWindows({ sql, pollMs: POLL_MS }) });
        return { dispatcher, emit: (event) => sql.transaction((tx) => dispatcher.record!(tx, [event])) };
      },
      async cleanup() {
        await sql.close();
        await db.cleanup();
      },
    };
  });
});
