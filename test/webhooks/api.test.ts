/**
 * Webhook configuration API (spec 2.6, 4.3, 6.5, 7) over real HTTP, and deliveries it configures
 * reaching a real HTTPS receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";
import { ALL_GRANTS } from "../../src/core/grants.js";
import type { ServiceEvent } from "../../src/core/events.js";

const RECORD_KEYS = ["active", "created_at", "events", "format", "header_names", "id", "url"];

describe.each(drivers)("webhook configuration on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let wsId: string;
  let receiver: Receiver;
  const post = (json: unknown, token = owner) => t.request("/api/dashboard/webhooks", { method: "POST", json, token });
  const put = (id: string, json: unknown) => t.request(`/api/dashboard/webhooks/${id}`, { method: "PUT", json, token: owner });
  const storedHeaders = (id: string) => t.svc.context.db.webhooks.headers(wsId, id);

  beforeAll(async () => {
    t = await startTestServer(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it("creates a webhook and answers exactly the record of spec 4.3", async () => {
    const res = await post({ url: receiver.url(), events: ["content.created", "form.submitted"], headers: { "X-Zeta": "z", "X-Alpha": "a" } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(RECORD_KEYS);
    expect(body).toMatchObject({ url: receiver.url(), events: ["content.created", "form.submitted"], active: true, format: "service", header_names: ["X-Alpha", "X-Zeta"] });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toMatch(/whsec_|"z"|"a"/);
    const get = await (await t.request(`/api/dashboard/webhooks/${body.id}`, { token: owner })).json();
    expect(get).toEqual(body);
    const list = await (await t.request("/api/dashboard/webhooks", { token: owner })).json();
    expect(list.data).toContainEqual(body);
    expect(list.meta).toEqual({ total: list.data.length });
  });

  it("shows the secret only in the settings view, and keeps it sealed at rest", async () => {
    const { id } = await (await post({ url: receiver.url(), events: ["content.updated"], headers: { Authorization: "Bearer s3cr3t-header-value" } })).json();
    const settings = await (await t.request(`/api/dashboard/webhooks/${id}/settings`, { token: owner })).json();
    expect(settings).toEqual({ active: true, debounce_ms: 0, debounce_scope: "entry", secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
    if (driver === "sqlite") {
      const dir = t.db.dataDir;
      const bytes = readdirSync(dir).filter((f) => f.startsWith("contentsvc.db")).map((f) => readFileSync(join(dir, f)).toString("latin1")).join("");
      expect(bytes).not.toContain(settings.secret);
      expect(bytes).not.toContain("s3cr3t-header-value");
    } else {
      const row = await t.svc.context.sql.get<Record<string, string>>("SELECT * FROM webhooks WHERE id = ?", [id]);
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
    const res = await post(body);
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err.error).toMatch(message);
    expect(JSON.stringify(err)).not.toContain("Injected");
  });

  it("applies the PUT custom-header rules of spec 4.3 exactly", async () => {
    const { id } = await (await post({ url: receiver.url(), events: ["content.created"], headers: { "X-One": "1", "X-Two": "2" } })).json();
    // 1. empty string keeps the stored value; only other names need be sent
    let res = await put(id, { headers: { "X-One": "", "X-Three": "3" } });
    expect(res.status).toBe(200);
    expect((await res.json()).header_names).toEqual(["X-One", "X-Three", "X-Two"]);
    expect(await storedHeaders(id)).toEqual({ "X-One": "1", "X-Two": "2", "X-Three": "3" });
    // 3. a blank value for a name never set is a 400, and changes nothing
    res = await put(id, { headers: { "X-Never": "" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/X-Never/);
    expect(await storedHeaders(id)).toEqual({ "X-One": "1", "X-Two": "2", "X-Three": "3" });
    // 2. blank for every stored name clears all
    res = await put(id, { headers: { "X-One": "", "X-Two": "", "X-Three": "" } });
    expect((await res.json()).header_names).toEqual([]);
    expect(await storedHeaders(id)).toEqual({});
    // 2. null and {} clear too
    await put(id, { headers: { "X-A": "a" } });
    expect((await (await put(id, { headers: null })).json()).header_names).toEqual([]);
    await put(id, { headers: { "X-A": "a" } });
    expect((await (await put(id, { headers: {} })).json()).header_names).toEqual([]);
    // headers absent: unchanged; other fields change
    await put(id, { headers: { "X-A": "a" } });
    const updated = await (await put(id, { events: ["content.deleted"], active: false })).json();
    expect(updated).toMatchObject({ events: ["content.deleted"], active: false, header_names: ["X-A"] });
    expect(Object.keys(updated).sort()).toEqual(RECORD_KEYS);
  });

  it("validates settings: debounce up to one hour, scope entry|webhook, secret not writable", async () => {
    const { id } = await (await post({ url: receiver.url(), events: ["content.created"] })).json();
    const path = `/api/dashboard/webhooks/${id}/settings`;
    const ok = await t.request(path, { method: "PUT", token: owner, json: { debounce_ms: 3_600_000, debounce_scope: "webhook", active: false } });
    expect(await ok.json()).toMatchObject({ debounce_ms: 3_600_000, debounce_scope: "webhook", active: false });
    for (const json of [{ debounce_ms: 3_600_001 }, { debounce_ms: -1 }, { debounce_ms: 1.5 }, { debounce_scope: "entryx" }, { secret: "x" }]) {
      expect((await t.request(path, { method: "PUT", token: owner, json })).status).toBe(400);
    }
  });

  it("is owner-only: keys and members with every grant get 403, no credential 401", async () => {
    const key = await apiKey(t.svc.context, wsId, [...ALL_GRANTS]);
    const member = await dashboardToken(t.svc.context, wsId, "member", [...ALL_GRANTS]);
    for (const token of [key, member]) {
      expect((await t.request("/api/dashboard/webhooks", { token })).status).toBe(403);
      expect((await post({ url: receiver.url(), events: ["content.created"] }, token)).status).toBe(403);
    }
    const none = await t.request("/api/dashboard/webhooks");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: "Unauthorized" });
  });

  it("answers 404 for another workspace's webhook", async () => {
    const other = await t.svc.context.workspaces.create({ slug: "other", hosts: ["other.localhost"] });
    const otherOwner = await dashboardToken(t.svc.context, other.id, "owner");
    const { id } = await (await post({ url: receiver.url(), events: ["content.created"] })).json();
    const res = await t.request(`/api/dashboard/webhooks/${id}`, { host: "other.localhost", token: otherOwner });
    expect(res.status).toBe(404);
  });

  it("delivers a signed event with custom headers to the configured receiver", async () => {
    const { id } = await (await post({ url: receiver.url("/signed"), events: ["content.published"], headers: { "X-Receiver-Token": "tok" } })).json();
    const { secret } = await (await t.request(`/api/dashboard/webhooks/${id}/settings`, { token: owner })).json();
    const before = receiver.requests.length;
    const event: ServiceEvent = {
      workspaceId: wsId,
      event: "content.published",
      data: { collection: "posts", entry: { id: "e1", _status: "published", _published_at: "2026-01-01T00:00:00.000Z", _created_by: "u", _created_at: "x", _updated_at: "y" } },
    };
    t.svc.context.bus.emit(event);
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
    const { id } = await (await post({ url: receiver.url("/test"), events: ["content.created"] })).json();
    const res = await t.request(`/api/dashboard/webhooks/${id}/test`, { method: "POST", token: owner, json: { event: "form.submitted" } });
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result).toMatchObject({ status: 200, ok: true, duration_ms: expect.any(Number), signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/) });
    const last = receiver.requests.at(-1)!;
    expect(result.signature).toBe(last.headers["x-service-signature"]);
    expect(JSON.parse(last.raw.toString()).event).toBe("form.submitted");
  });

  it("deletes a webhook", async () => {
    const { id } = await (await post({ url: receiver.url(), events: ["content.created"] })).json();
    expect((await t.request(`/api/dashboard/webhooks/${id}`, { method: "DELETE", token: owner })).status).toBe(204);
    expect((await t.request(`/api/dashboard/webhooks/${id}`, { token: owner })).status).toBe(404);
  });
});

describe("webhook URLs on a server that does not allow private targets", () => {
  let t: TestServer;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer("sqlite");
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = await dashboardToken(t.svc.context, ws.id, "owner");
  });
  afterAll(() => t?.close());

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
    const res = await t.request("/api/dashboard/webhooks", { method: "POST", token: owner, json: { url, events: ["content.created"] } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBeTruthy();
  });

  it("accepts a public https URL", async () => {
    const res = await t.request("/api/dashboard/webhooks", { method: "POST", token: owner, json: { url: "https://hooks.example.com/x", events: ["content.created"] } });
    expect(res.status).toBe(201);
  });
});

describe("webhook targets as the dispatcher sees them", () => {
  let t: TestServer;
  let owner: string;
  let wsId: string;
  beforeAll(async () => {
    t = await startTestServer("sqlite", { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
  });
  afterAll(() => t?.close());

  it("reuses the opened target while the webhook is unchanged, and follows every change at once", async () => {
    const webhooks = t.svc.context.db.webhooks;
    const { id } = await (await t.request("/api/dashboard/webhooks", { method: "POST", token: owner, json: { url: "https://127.0.0.1:9/a", events: ["content.created"], headers: { "X-A": "1" } } })).json();
    const [first] = await webhooks.targetsFor(wsId, "content.created");
    const [again] = await webhooks.targetsFor(wsId, "content.created");
    expect(again).toBe(first);
    await t.request(`/api/dashboard/webhooks/${id}`, { method: "PUT", token: owner, json: { headers: { "X-A": "2" } } });
    const [changed] = await webhooks.targetsFor(wsId, "content.created");
    expect(changed!.headers).toEqual({ "X-A": "2" });
    await t.request(`/api/dashboard/webhooks/${id}/settings`, { method: "PUT", token: owner, json: { debounce_ms: 1000 } });
    expect((await webhooks.targetsFor(wsId, "content.created"))[0]!.debounceMs).toBe(1000);
    await t.request(`/api/dashboard/webhooks/${id}/settings`, { method: "PUT", token: owner, json: { active: false } });
    expect(await webhooks.targetsFor(wsId, "content.created")).toEqual([]);
  });
});
