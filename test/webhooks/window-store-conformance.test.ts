/**
 * The conformance suite of window stores (like unstorage's `testDriver`): every store the
 * dispatcher can run on goes through the same cases, the rules of spec 6.6/6.7 as a receiver sees
 * them. Each store is one `describeWindowStore(name, traits, setup)` at the bottom: memory, Redis
 * (with SVC_TEST_REDIS_URL) and the SQL outbox on every test database; `traits` say what a store
 * promises beyond the spec (windows shared by instances, windows that outlive one). A new store
 * adds its line there.
 *
 * The spec's fixed numbers (0.5 s coalescing, debounce_ms) are checked on a real clock; windows of
 * minutes or an hour on an injected clock that the test moves (the stores' own polling, if any,
 * stays on real time).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { ContentEventName, ServiceEvent } from "../../src/core/events.js";
import { openDatabase } from "../../src/storage/open.js";
import { migrate } from "../../src/storage/migrate.js";
import { createWorkspaceRepo } from "../../src/storage/workspaces.js";
import { createDispatcher, type Dispatcher, type DispatcherOptions, type WebhookSource, type WebhookTarget } from "../../src/webhooks/index.js";
import { createOutboxWindows } from "../../src/webhooks/outbox-windows.js";
import { createRedisWindows } from "../../src/webhooks/redis-windows.js";
import { createTestDatabase, drivers, REDIS_URL } from "../helpers/database.js";
import { CA, captureLogger, contentEvent, createFakeClock, entryId, settle, sleep, startReceiver, target, type Receiver } from "./helpers.js";

/** One dispatcher over the store under test. */
interface StoreInstance {
  dispatcher: Dispatcher;
  /** Hands an event to the dispatcher the way the service does after (or inside) the write. */
  emit(event: ServiceEvent): Promise<void>;
}

/** A store under test, made fresh for each case. */
interface StoreUnderTest {
  /** The workspace of the events and webhooks (a store on a database needs a real one). */
  workspaceId: string;
  /** A new dispatcher ("instance") over the store; `options` override the suite's. */
  instance(options: Partial<DispatcherOptions>): Promise<StoreInstance>;
  cleanup(): Promise<void>;
}

/** A source that answers both the match and the re-read before each attempt (spec 6.6). */
function sourceOf(hooks: WebhookTarget[]): Required<WebhookSource> {
  return {
    targetsFor: async (workspaceId, event) => hooks.filter((t) => t.workspaceId === workspaceId && t.active && t.events.includes(event)),
    current: async (workspaceId, webhookId) => hooks.find((t) => t.workspaceId === workspaceId && t.id === webhookId),
  };
}

/** What a store promises beyond spec 6.7 for one instance. */
interface StoreTraits {
  /** Instances made by `instance` share their windows (Redis, the SQL outbox): one delivery per window among them. */
  shared: boolean;
  /** Windows outlive the instance that opened them (the SQL outbox): close() keeps them, another instance sends them. */
  persistent: boolean;
  /** Real time a window may need beyond its close to reach the queue (a poll interval), ms. */
  latencyMs: number;
}

function describeWindowStore(name: string, traits: StoreTraits, setup: () => Promise<StoreUnderTest>): void {
  describe(`window store conformance: ${name}`, () => {
    const cleanup: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
      for (const fn of cleanup.splice(0).reverse()) await fn();
    });

    /** A store, a receiver, one webhook to it, and a way to make instances. */
    const rig = async (hook: Partial<WebhookTarget> = {}) => {
      const store = await setup();
      cleanup.push(() => store.cleanup());
      const receiver: Receiver = await startReceiver();
      cleanup.push(() => receiver.close());
      const webhook = target(receiver.url(), { workspaceId: store.workspaceId, ...hook });
      const source = sourceOf([webhook]);
      const instance = async (options: Partial<DispatcherOptions> = {}) => {
        const made = await store.instance({ source, allowPrivateTargets: true, ca: CA, retryDelaysMs: [], logger: captureLogger(), ...options });
        cleanup.push(() => made.dispatcher.close({ graceMs: 500 }));
        // The webhooks are looked up asynchronously: let that happen before the test moves a clock.
        return { ...made, emit: async (e: ServiceEvent) => (await made.emit(e), await settle()) };
      };
      const event = (name: ContentEventName, entry: number, title: string): ServiceEvent => ({
        ...contentEvent(name, entryId(entry), { title }),
        workspaceId: store.workspaceId,
      });
      const bodies = () => receiver.requests.map((r) => JSON.parse(r.raw.toString()) as { event: string; data: { entry: { id: string; title: string } } });
      return { store, receiver, webhook, instance, event, bodies };
    };

    it("spec 6.7.1 (real clock): content.updated of one entry within 0.5 s is ONE delivery with the latest state, 0.5 s after the last", async () => {
      const { receiver, instance, event, bodies } = await rig({ events: ["content.updated"] });
      const one = await instance();
      for (const title of ["u1", "u2", "u3"]) {
        await one.emit(event("content.updated", 1, title));
        await sleep(100);
      }
      const last = Date.now() - 100;
      await receiver.waitFor(1, 3000);
      const waited = receiver.requests[0]!.at - last;
      expect(waited).toBeGreaterThanOrEqual(480);
      expect(waited).toBeLessThan(500 + 400 + traits.latencyMs);
      await sleep(600 + traits.latencyMs);
      expect(bodies().map((b) => b.data.entry.title)).toEqual(["u3"]);
    });

    it("spec 6.7.1: coalescing is per entry, and no other event is coalesced or delayed", async () => {
      const { receiver, instance, event, bodies } = await rig();
      const one = await instance();
      const start = Date.now();
      await one.emit(event("content.created", 1, "c1"));
      await one.emit(event("content.published", 1, "p1"));
      await one.emit(event("content.published", 1, "p2"));
      await receiver.waitFor(3, 3000);
      // Not held for the 0.5 s of content.updated.
      expect(Math.max(...receiver.requests.map((r) => r.at)) - start).toBeLessThan(400 + traits.latencyMs);
      await one.emit(event("content.updated", 1, "a"));
      await one.emit(event("content.updated", 2, "b"));
      await receiver.waitFor(5, 3000);
      await sleep(600 + traits.latencyMs);
      expect(bodies().map((b) => b.data.entry.title).sort()).toEqual(["a", "b", "c1", "p1", "p2"]);
    });

    it("spec 6.7.2-6.7.4 (real clock): debounce_ms delays other events exactly that long and content.updated 0.5 s more", async () => {
      const { receiver, instance, event, bodies } = await rig({ debounceMs: 400 });
      const one = await instance();
      const start = Date.now();
      await one.emit(event("content.published", 1, "p"));
      await one.emit(event("content.updated", 2, "u"));
      await receiver.waitFor(2, 4000);
      const at = Object.fromEntries(bodies().map((b, i) => [b.event, receiver.requests[i]!.at - start]));
      expect(at["content.published"]).toBeGreaterThanOrEqual(390);
      expect(at["content.published"]).toBeLessThan(400 + 400 + traits.latencyMs);
      expect(at["content.updated"]).toBeGreaterThanOrEqual(890);
      expect(at["content.updated"]).toBeLessThan(900 + 400 + 2 * traits.latencyMs);
    });

    it("spec 6.7.2/6.7.3 (injected clock): a later event re-arms the window; only the latest is sent, an hour after it", async () => {
      const { receiver, instance, event, bodies } = await rig({ debounceMs: 3_600_000, debounceScope: "entry" });
      const clock = createFakeClock();
      const one = await instance({ clock });
      const tick = async (ms: number) => {
        clock.advance(ms);
        await settle();
        await sleep(traits.latencyMs);
        await settle();
      };
      await one.emit(event("content.published", 1, "first"));
      await one.emit(event("content.published", 2, "other entry"));
      await tick(30 * 60_000);
      await one.emit(event("content.published", 1, "second"));
      await tick(30 * 60_000 - 1); // the other entry's window: exactly one hour after its event
      expect(bodies()).toEqual([]);
      await tick(1);
      await receiver.waitFor(1, 3000);
      expect(bodies().map((b) => b.data.entry.title)).toEqual(["other entry"]);
      await tick(30 * 60_000 - 1); // entry 1: one hour after its LAST event, not its first
      expect(receiver.requests).toHaveLength(1);
      await tick(1);
      await receiver.waitFor(2, 3000);
      await tick(2 * 3_600_000);
      expect(bodies().map((b) => b.data.entry.title)).toEqual(["other entry", "second"]);
    });

    it("spec 6.7.2/6.7.4 (injected clock): scope webhook collapses every entry of an event name; content.updated waits debounce_ms + 0.5 s", async () => {
      const { receiver, instance, event, bodies } = await rig({ debounceMs: 120_000, debounceScope: "webhook" });
      const clock = createFakeClock();
      const one = await instance({ clock });
      const tick = async (ms: number) => {
        clock.advance(ms);
        await settle();
        await sleep(traits.latencyMs);
        await settle();
      };
      for (const [n, title] of [[1, "x"], [2, "y"], [3, "z"]] as const) await one.emit(event("content.created", n, title));
      for (const [n, title] of [[1, "ux"], [2, "uy"]] as const) await one.emit(event("content.updated", n, title));
      await tick(500); // coalescing windows close; the debounce windows of the updates open now
      await tick(119_499);
      expect(receiver.requests).toHaveLength(0);
      await tick(1); // created: exactly 120 s
      await receiver.waitFor(1, 3000);
      expect(bodies().map((b) => [b.event, b.data.entry.title])).toEqual([["content.created", "z"]]);
      await tick(499);
      expect(receiver.requests).toHaveLength(1);
      await tick(1); // updated: 120 s + 0.5 s
      await receiver.waitFor(2, 3000);
      await tick(300_000);
      expect(bodies().map((b) => [b.event, b.data.entry.title])).toEqual([["content.created", "z"], ["content.updated", "uy"]]);
    });

    it("spec 6.6 Persistence: close() sends the open windows this instance owns at once, or keeps them where they outlive it", async () => {
      const { receiver, instance, event, bodies } = await rig({ debounceMs: 600_000 });
      const one = await instance();
      await one.emit(event("content.published", 1, "held"));
      await sleep(50 + traits.latencyMs);
      await one.dispatcher.close({ graceMs: 2000 });
      if (!traits.persistent) {
        expect(bodies().map((b) => b.data.entry.title)).toEqual(["held"]);
        return;
      }
      expect(receiver.requests).toHaveLength(0);
    });

    it.runIf(traits.shared)("shared windows (real clock): updates of one entry on two instances within 0.5 s are ONE delivery of the last, sent by its instance", async () => {
      const { receiver, instance, event, bodies } = await rig({ events: ["content.updated"] });
      const a = await instance();
      const b = await instance();
      await a.emit(event("content.updated", 1, "on A"));
      await sleep(120);
      await b.emit(event("content.updated", 1, "on B"));
      await sleep(120); // 240 ms after A's: a per-instance window would have closed on A by now
      await a.emit(event("content.updated", 1, "on A again"));
      await receiver.waitFor(1, 3000);
      await sleep(800 + traits.latencyMs);
      expect(bodies().map((body) => body.data.entry.title)).toEqual(["on A again"]);
      expect(a.dispatcher.stats().delivered + b.dispatcher.stats().delivered).toBe(1);
    });

    it.runIf(traits.shared)("shared windows: a debounce window (scope webhook) fed on two instances sends once, the latest event", async () => {
      const { receiver, instance, event, bodies } = await rig({ events: ["content.created"], debounceMs: 300, debounceScope: "webhook" });
      const a = await instance();
      const b = await instance();
      await a.emit(event("content.created", 1, "first"));
      await sleep(80);
      await b.emit(event("content.created", 2, "second"));
      await receiver.waitFor(1, 3000);
      await sleep(500 + traits.latencyMs);
      expect(bodies().map((body) => body.data.entry.title)).toEqual(["second"]);
    });

    it.runIf(traits.persistent)("persistent windows: a window an instance kept at close is sent by another instance when it closes", async () => {
      const { receiver, instance, event, bodies } = await rig({ debounceMs: 700 });
      const first = await instance();
      const start = Date.now();
      await first.emit(event("content.published", 1, "kept"));
      await sleep(100);
      await first.dispatcher.close({ graceMs: 500 });
      await instance();
      await receiver.waitFor(1, 4000);
      expect(receiver.requests[0]!.at - start).toBeGreaterThanOrEqual(690);
      await sleep(300 + traits.latencyMs);
      expect(bodies().map((body) => body.data.entry.title)).toEqual(["kept"]);
    });
  });
}

describeWindowStore("memory", { shared: false, persistent: false, latencyMs: 0 }, async () => ({
  workspaceId: "ws-1",
  async instance(options) {
    const dispatcher = createDispatcher({ ...(options as DispatcherOptions), windows: "memory" });
    return { dispatcher, emit: async (event) => dispatcher.emit(event) };
  },
  cleanup: async () => undefined,
}));

// Each case gets its own key prefix; every instance its own factory, i.e. its own instance id.
describe.runIf(REDIS_URL)("on Redis", () => {
  describeWindowStore("Redis", { shared: true, persistent: false, latencyMs: 50 }, async () => {
    const prefix = `contentsvc-test:${randomBytes(6).toString("hex")}:`;
    return {
      workspaceId: "ws-1",
      async instance(options) {
        const dispatcher = createDispatcher({ ...(options as DispatcherOptions), windows: createRedisWindows(REDIS_URL!, { prefix }) });
        return { dispatcher, emit: async (event) => dispatcher.emit(event) };
      },
      async cleanup() {
        const redis = new Redis(REDIS_URL!);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      },
    };
  });
});

// Durable delivery: every instance has its own store factory (its own instance id) on one database.
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
