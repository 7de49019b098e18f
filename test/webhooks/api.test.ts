/**
 * Webhook configuration API (spec 2.6, 4.3, 6.5, 7) over real HTTP, and deliveries it configures
 * reaching a real HTTPS receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";
import { ALL_GRANTS } from "../../src/core/grants.js";
import type { ServiceEvent } from "../../src/core/events.js";

const RECORD_KEYS = ["active", "created_at", "events", "format", "header_names", "id", "url"];

describe.each(drivers)("webhook configuration on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let wsId: string;
  let receiver: Receiver;
  const createWebhook = (json: unknown, as = owner) => as.post("/api/dashboard/webhooks", json);
  const updateWebhook = (id: string, json: unknown) => owner.put(`/api/dashboard/webhooks/${id}`, json);
  const storedHeaders = (id: string) => s.svc.context.db.webhooks.headers(wsId, id);

  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it("creates a webhook and answers exactly the record of spec 4.3", async () => {
    const { body } = (await createWebhook({ url: receiver.url(), events: ["content.created", "form.submitted"], headers: { "X-Zeta": "z", "X-Alpha": "a" } }))
      .expectStatus(201)
      .expectBody({ url: receiver.url(), events: ["content.created", "form.submitted"], active: true, format: "service", header_names: ["X-Alpha", "X-Zeta"] });
    expect(Object.keys(body).sort()).toEqual(RECORD_KEYS);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toMatch(/whsec_|"z"|"a"/);
    expect((await owner.get(`/api/dashboard/webhooks/${body.id}`)).body).toEqual(body);
    const list = (await owner.get("/api/dashboard/webhooks")).body;
    expect(list.data).toContainEqual(body);
    expect(list.meta).toEqual({ total: list.data.length });
  });

  it("shows the secret only in the settings view, and keeps it sealed at rest", async () => {
    const { id } = (await createWebhook({ url: receiver.url(), events: ["content.updated"], headers: { Authorization: "Bearer s3cr3t-header-value" } })).body;
    const settings = (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body;
    expect(settings).toEqual({ active: true, debounce_ms: 0, debounce_scope: "entry", secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
    if (driver === "sqlite") {
      const dir = s.t.db.dataDir;
      const bytes = readdirSync(dir).filter((f) => f.startsWith("contentsvc.db")).map((f) => readFileSync(join(dir, f)).toString("latin1")).join("");
      expect(bytes).not.toContain(settings.secret);
      expect(bytes).not.toContain("s3cr3t-header-value");
    } else {
      const row = await s.svc.context.sql.get<Record<string, string>>("SELECT * FROM webhooks WHERE id = ?", [id]);
      expect(JSON.stringify(row)).not.toContain(settings.secret);
      expect(JSON.stringify(row)).not.toContain("s3cr3t-header-value");
    }
  });

  it.each([
    [{ url: "http://example.com/hook", events: ["content.created"] }, /https/],
    [{ events: ["content.created"] }, /url is required/],
    [{ url: "https://example.com/hook", events: ["content.exploded"] }, /content\.exploded/],
    [{ url: "https://example.com/hook", events: ["content.created"], format: "xml" }, /format/],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: { "Content-Type": "text/plain" } }, /Content-Type/i],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: { "x-service-signature": "x" } }, /x-service-signature/i],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: { "X Bad": "x" } }, /X Bad/],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: { "X-Long": "a".repeat(1025) } }, /1024/],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: { "X-Crlf": "a\r\nInjected: 1" } }, /X-Crlf/],
    [{ url: "https://example.com/hook", events: ["content.created"], headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, "v"])) }, /10/],
    [{ url: "https://example.com/hook", events: ["content.created"], debounce_ms: 5 }, /settings/],
    [{ url: "https://example.com/hook", events: ["content.created"], secret: "mine" }, /settings/],
  ])("refuses %j with 400", async (body, message) => {
    const err = (await createWebhook(body)).expectStatus(400).body;
    expect(err.error).toMatch(message);
    expect(JSON.stringify(err)).not.toContain("Injected");
  });

  it("applies the PUT custom-header rules of spec 4.3 exactly", async () => {
    const { id } = (await createWebhook({ url: receiver.url(), events: ["content.created"], headers: { "X-One": "1", "X-Two": "2" } })).body;
    // 1. empty string keeps the stored value; only other names need be sent
    const kept = (await updateWebhook(id, { headers: { "X-One": "", "X-Three": "3" } })).expectStatus(200).body;
    expect(kept.header_names).toEqual(["X-One", "X-Three", "X-Two"]);
    expect(await storedHeaders(id)).toEqual({ "X-One": "1", "X-Two": "2", "X-Three": "3" });
    // 3. a blank value for a name never set is a 400, and changes nothing
    expect((await updateWebhook(id, { headers: { "X-Never": "" } })).expectStatus(400).body.error).toMatch(/X-Never/);
    expect(await storedHeaders(id)).toEqual({ "X-One": "1", "X-Two": "2", "X-Three": "3" });
    // 2. blank for every stored name clears all
    expect((await updateWebhook(id, { headers: { "X-One": "", "X-Two": "", "X-Three": "" } })).body.header_names).toEqual([]);
    expect(await storedHeaders(id)).toEqual({});
    // 2. null and {} clear too
    await updateWebhook(id, { headers: { "X-A": "a" } });
    expect((await updateWebhook(id, { headers: null })).body.header_names).toEqual([]);
    await updateWebhook(id, { headers: { "X-A": "a" } });
    expect((await updateWebhook(id, { headers: {} })).body.header_names).toEqual([]);
    // headers absent: unchanged; other fields change
    await updateWebhook(id, { headers: { "X-A": "a" } });
    const updated = (await updateWebhook(id, { events: ["content.deleted"], active: false }))
      .expectBody({ events: ["content.deleted"], active: false, header_names: ["X-A"] }).body;
    expect(Object.keys(updated).sort()).toEqual(RECORD_KEYS);
  });

  it("validates settings: debounce up to one hour, scope entry|webhook, secret not writable", async () => {
    const { id } = (await createWebhook({ url: receiver.url(), events: ["content.created"] })).body;
    const path = `/api/dashboard/webhooks/${id}/settings`;
    (await owner.put(path, { debounce_ms: 3_600_000, debounce_scope: "webhook", active: false })).expectBody({ debounce_ms: 3_600_000, debounce_scope: "webhook", active: false });
    for (const json of [{ debounce_ms: 3_600_001 }, { debounce_ms: -1 }, { debounce_ms: 1.5 }, { debounce_scope: "entryx" }, { secret: "x" }]) {
      (await owner.put(path, json)).expectStatus(400);
    }
  });

  it("is owner-only: keys and members with every grant get 403, no credential 401", async () => {
    const key = s.as(await apiKey(s.svc.context, wsId, [...ALL_GRANTS]));
    const member = s.as(await dashboardToken(s.svc.context, wsId, "member", [...ALL_GRANTS]));
    for (const caller of [key, member]) {
      (await caller.get("/api/dashboard/webhooks")).expectStatus(403);
      (await createWebhook({ url: receiver.url(), events: ["content.created"] }, caller)).expectStatus(403);
    }
    expect((await s.get("/api/dashboard/webhooks")).expectStatus(401).body).toEqual({ error: "Unauthorized" });
  });

  it("answers 404 for another workspace's webhook", async () => {
    const other = await s.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    const otherOwner = s.as(await dashboardToken(s.svc.context, other.id, "owner"), { host: "other.localhost" });
    const { id } = (await createWebhook({ url: receiver.url(), events: ["content.created"] })).body;
    (await otherOwner.get(`/api/dashboard/webhooks/${id}`)).expectStatus(404);
  });

  it("delivers a signed event with custom headers to the configured receiver", async () => {
    const { id } = (await createWebhook({ url: receiver.url("/signed"), events: ["content.published"], headers: { "X-Receiver-Token": "tok" } })).body;
    const { secret } = (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body;
    const before = receiver.requests.length;
    const event: ServiceEvent = {
      workspaceId: wsId,
      event: "content.published",
      data: { collection: "posts", entry: { id: "e1", _status: "published", _published_at: "2026-01-01T00:00:00.000Z", _created_by: "u", _created_at: "x", _updated_at: "y" } },
    };
    s.svc.context.bus.emit(event);
    const [got] = (await receiver.waitFor(before + 1)).slice(before).filter((r) => r.path === "/signed");
    expect(got.headers["x-receiver-token"]).toBe("tok");
    expect(got.headers["content-type"]).toBe("application/json");
    const expected = "sha256=" + createHmac("sha256", secret).update(got.raw).digest("hex");
    expect(got.headers["x-service-signature"]).toBe(expected);
    const body = JSON.parse(got.raw.toString());
    expect(Object.keys(body).sort()).toEqual(["data", "event", "timestamp"]);
    expect(body.event).toBe("content.published");
  });

  it("sends a test delivery through the real path", async () => {
    const { id } = (await createWebhook({ url: receiver.url("/test"), events: ["content.created"] })).body;
    const result = (await owner.post(`/api/dashboard/webhooks/${id}/test`, { event: "form.submitted" }))
      .expectStatus(200)
      .expectBody({ status: 200, ok: true, duration_ms: expect.any(Number), signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/) }).body;
    const last = receiver.requests.at(-1)!;
    expect(result.signature).toBe(last.headers["x-service-signature"]);
    expect(JSON.parse(last.raw.toString()).event).toBe("form.submitted");
  });

  it("deletes a webhook", async () => {
    const { id } = (await createWebhook({ url: receiver.url(), events: ["content.created"] })).body;
    (await owner.delete(`/api/dashboard/webhooks/${id}`)).expectStatus(204);
    (await owner.get(`/api/dashboard/webhooks/${id}`)).expectStatus(404);
  });
});

describe("webhook URLs on a server that does not allow private targets", () => {
  let s: ServerScenario;
  let owner: Caller;
  beforeAll(async () => {
    s = await scenario("sqlite");
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"));
  });
  afterAll(() => s?.close());

  it.each([
    "https://127.0.0.1/hook",
    "https://localhost/hook",
    "https://10.0.0.5/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://2130706433/hook",
    "https://0x7f.1/hook",
    "https://printer.local/hook",
    "https://example.com@127.0.0.1/hook",
  ])("refuses %s on save", async (url) => {
    expect((await owner.post("/api/dashboard/webhooks", { url, events: ["content.created"] })).expectStatus(400).body.error).toBeTruthy();
  });

  it("accepts a public https URL", async () => {
    (await owner.post("/api/dashboard/webhooks", { url: "https://hooks.example.com/x", events: ["content.created"] })).expectStatus(201);
  });
});

describe("webhook targets as the dispatcher sees them", () => {
  let s: ServerScenario;
  let owner: Caller;
  let wsId: string;
  beforeAll(async () => {
    s = await scenario("sqlite", { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
  });
  afterAll(() => s?.close());

  it("reuses the opened target while the webhook is unchanged, and follows every change at once", async () => {
    const webhooks = s.svc.context.db.webhooks;
    const { id } = (await owner.post("/api/dashboard/webhooks", { url: "https://127.0.0.1:9/a", events: ["content.created"], headers: { "X-A": "1" } })).body;
    const [first] = await webhooks.targetsFor(wsId, "content.created");
    const [again] = await webhooks.targetsFor(wsId, "content.created");
    expect(again).toBe(first);
    await owner.put(`/api/dashboard/webhooks/${id}`, { headers: { "X-A": "2" } });
    const [changed] = await webhooks.targetsFor(wsId, "content.created");
    expect(changed!.headers).toEqual({ "X-A": "2" });
    await owner.put(`/api/dashboard/webhooks/${id}/settings`, { debounce_ms: 1000 });
    expect((await webhooks.targetsFor(wsId, "content.created"))[0]!.debounceMs).toBe(1000);
    await owner.put(`/api/dashboard/webhooks/${id}/settings`, { active: false });
    expect(await webhooks.targetsFor(wsId, "content.created")).toEqual([]);
  });
});
