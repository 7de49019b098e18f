/**
 * A webhook changed while a delivery waits (debounce window or retry wait) is read again at send
 * time: deleted or deactivated → nothing is sent; URL, headers or secret changed → the current ones
 * are used. Real service over real HTTP, real HTTPS receivers, an injected dispatcher clock (the
 * windows last up to an hour), on every driver, with in-memory and Redis windows.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRedisWindows } from "../../src/webhooks/redis-windows.js";
import { drivers, REDIS_URL } from "../helpers/database.js";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, captureLogger, createFakeClock, settle, startReceiver, type Receiver } from "./helpers.js";

const HOUR = 3_600_000;
const RETRY_MS = 60_000;
const stores = REDIS_URL ? (["memory", "redis"] as const) : (["memory"] as const);
const cases = drivers.flatMap((driver) => stores.map((store) => [driver, store] as const));

describe.each(cases)("a webhook changed while its delivery waits (%s, %s windows)", (driver, store) => {
  let s: ServerScenario;
  let owner: Caller;
  let clock: ReturnType<typeof createFakeClock>;
  let logger: ReturnType<typeof captureLogger>;
  const receivers: Receiver[] = [];
  const stats = () => s.svc.context.webhooks.stats();
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  /** Polls real time until `check` holds (the dispatcher's own work is asynchronous). */
  const until = async (what: string, check: () => boolean, timeoutMs = 5000) => {
    const end = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  const hook = async (url: string, debounceMs: number, headers: Record<string, string> = {}) => {
    const id = (await owner.post("/api/dashboard/webhooks", { url, events: ["content.created"], headers })).expectStatus(201).body.id as string;
    (await owner.put(`/api/dashboard/webhooks/${id}/settings`, { debounce_ms: debounceMs })).expectStatus(200);
    const { secret } = (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body as { secret: string };
    return { id, secret };
  };

  /** Creates an entry and waits until its delivery sits in a window (or a retry wait) of the fake clock. */
  const createEntry = async (title: string) => {
    const timers = clock.timers;
    (await owner.post("/api/dashboard/collections/posts/entries", { title })).expectStatus(201);
    await until("the debounce window", () => clock.timers > timers);
  };

  /** Waits for the drop (or, when the webhook is not re-read, for the stale delivery). */
  const dropped = async (before: number, r: Receiver, sent = 0) => {
    await until("the drop", () => stats().dropped > before || r.requests.length > sent);
    await settle();
  };

  beforeAll(async () => {
    clock = createFakeClock(Date.now());
    logger = captureLogger();
    const windows = store === "redis" ? createRedisWindows(REDIS_URL!, { prefix: `contentsvc-test:${randomBytes(6).toString("hex")}:` }) : "memory";
    s = await scenario(driver, {
      allowPrivateWebhookTargets: true,
      webhooks: { ca: CA, clock, logger, retryDelaysMs: [RETRY_MS], windows },
    });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"));
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
  });
  afterEach(async () => {
    for (const { id } of (await owner.get("/api/dashboard/webhooks")).body.data as { id: string }[]) await owner.delete(`/api/dashboard/webhooks/${id}`);
    clock.advance(HOUR + RETRY_MS); // nothing left waiting for the next test
    await until("an idle dispatcher", () => stats().pending === 0 && stats().inFlight === 0);
    logger.lines.length = 0;
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it("deleted during its debounce window: nothing is delivered, the drop is logged without credentials", async () => {
    const r = await receiver();
    const { id, secret } = await hook(r.url(), HOUR, { Authorization: "Bearer receiver-credential-1" });
    await createEntry("deleted-window");
    (await owner.delete(`/api/dashboard/webhooks/${id}`)).expectStatus(204);
    const before = stats().dropped;
    clock.advance(HOUR);
    await dropped(before, r);
    expect(r.requests).toHaveLength(0);
    expect(logger.text()).toContain("webhook delivery dropped: the webhook was deleted");
    expect(logger.text()).toContain(id);
    expect(logger.text()).not.toContain("receiver-credential-1");
    expect(logger.text()).not.toContain(secret);
  });

  it("deactivated during its debounce window: nothing is delivered", async () => {
    const r = await receiver();
    const { id } = await hook(r.url(), HOUR);
    await createEntry("deactivated-window");
    (await owner.put(`/api/dashboard/webhooks/${id}/settings`, { active: false })).expectStatus(200);
    const before = stats().dropped;
    clock.advance(HOUR);
    await dropped(before, r);
    expect(r.requests).toHaveLength(0);
    expect(logger.text()).toContain("the webhook was deactivated");
  });

  it("unsubscribed from the event during its window: nothing is delivered", async () => {
    const r = await receiver();
    const { id } = await hook(r.url(), HOUR);
    await createEntry("unsubscribed-window");
    (await owner.put(`/api/dashboard/webhooks/${id}`, { events: ["content.deleted"] })).expectStatus(200);
    const before = stats().dropped;
    clock.advance(HOUR);
    await dropped(before, r);
    expect(r.requests).toHaveLength(0);
  });

  it("URL changed during its window: the new URL receives the delivery, the old one nothing", async () => {
    const [old, current] = [await receiver(), await receiver()];
    const { id } = await hook(old.url(), HOUR);
    await createEntry("moved");
    (await owner.put(`/api/dashboard/webhooks/${id}`, { url: current.url("/new") })).expectStatus(200);
    clock.advance(HOUR);
    const [got] = await current.waitFor(1);
    expect(got!.path).toBe("/new");
    expect(JSON.parse(got!.raw.toString()).data.entry.title).toBe("moved");
    expect(old.requests).toHaveLength(0);
  });

  it("headers changed during its window: the delivery carries the new values", async () => {
    const r = await receiver();
    const { id } = await hook(r.url(), HOUR, { Authorization: "Bearer old-credential", "X-Team": "a" });
    await createEntry("headers");
    (await owner.put(`/api/dashboard/webhooks/${id}`, { headers: { Authorization: "Bearer new-credential", "X-Team": "" } })).expectStatus(200);
    clock.advance(HOUR);
    const [got] = await r.waitFor(1);
    expect(got!.headers.authorization).toBe("Bearer new-credential");
    expect(got!.headers["x-team"]).toBe("a");
  });

  it("secret changed during its window: the delivery is signed with the new secret", async () => {
    const { signBody } = await import("../../src/webhooks/sign.js");
    const r = await receiver();
    const { id, secret } = await hook(r.url(), HOUR);
    await createEntry("resigned");
    // No route changes a secret (rotation = a new webhook); the stored row is what is re-read.
    const fresh = `whsec_${randomBytes(32).toString("hex")}`;
    const { sql, sealer } = s.svc.context;
    await sql.run("UPDATE webhooks SET secret_sealed = ? WHERE id = ?", [sealer.seal(fresh), id]);
    clock.advance(HOUR);
    const [got] = await r.waitFor(1);
    expect(got!.headers["x-service-signature"]).toBe(signBody(fresh, got!.raw));
    expect(got!.headers["x-service-signature"]).not.toBe(signBody(secret, got!.raw));
  });

  it("a retry in backoff is not sent once the webhook was deleted", async () => {
    const r = await receiver((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const { id } = await hook(r.url(), 0);
    const timers = clock.timers;
    (await owner.post("/api/dashboard/collections/posts/entries", { title: "retried" })).expectStatus(201);
    await r.waitFor(1);
    await until("the retry wait", () => clock.timers > timers);
    (await owner.delete(`/api/dashboard/webhooks/${id}`)).expectStatus(204);
    const before = stats().dropped;
    clock.advance(RETRY_MS);
    await dropped(before, r, 1);
    expect(r.requests).toHaveLength(1);
  });

  it("a retry in backoff goes to the webhook's current URL", async () => {
    const failing = await receiver((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const current = await receiver();
    const { id } = await hook(failing.url(), 0);
    const timers = clock.timers;
    (await owner.post("/api/dashboard/collections/posts/entries", { title: "retried-moved" })).expectStatus(201);
    await failing.waitFor(1);
    await until("the retry wait", () => clock.timers > timers);
    (await owner.put(`/api/dashboard/webhooks/${id}`, { url: current.url() })).expectStatus(200);
    clock.advance(RETRY_MS);
    const [got] = await current.waitFor(1);
    expect(JSON.parse(got!.raw.toString()).data.entry.title).toBe("retried-moved");
    expect(failing.requests).toHaveLength(1);
  });
});
