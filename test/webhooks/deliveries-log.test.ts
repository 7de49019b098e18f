/**
 * Opt-in webhook features beyond spec 6.6, over real HTTP to real HTTPS receivers: the delivery
 * log (attempts, retention, deletion with the webhook, no secrets), redelivery, the Standard
 * Webhooks headers checked with the official `standardwebhooks` package as an independent
 * verifier, secret rotation, and owner-only access.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Received, type Receiver } from "./helpers.js";
import { verifyStandardWebhook } from "../../src/signature.js";
import { ALL_GRANTS } from "../../src/core/grants.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hmacHex = (secret: string, raw: Buffer) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

/** The official library's verdict on one received request: true, or its error message. */
function officialVerify(secret: string, r: Received): true | string {
  try {
    new Webhook(secret).verify(r.raw.toString("utf8"), r.headers as Record<string, string>);
    return true;
  } catch (err) {
    return (err as Error).message;
  }
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await sleep(25);
  }
}

describe.each(drivers)("webhook delivery log, redelivery, Standard Webhooks on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let wsId: string;
  let receiver: Receiver;
  // 500, 500, then 200 for every delivery whose body says "flaky"; 200 otherwise.
  const seen = new Map<string, number>();
  const create = async (json: Record<string, unknown>) => {
    const record = (await owner.post("/api/dashboard/webhooks", { url: receiver.url(), events: ["content.created"], ...json })).expectStatus(201).body;
    const secret = (await owner.get(`/api/dashboard/webhooks/${record.id}/settings`)).body.secret as string;
    return { record, secret, id: record.id as string };
  };
  const deliveries = async (id: string) => (await owner.get(`/api/dashboard/webhooks/${id}/deliveries`)).body as { data: any[]; meta: { total: number } };
  const testDelivery = (id: string) => owner.post(`/api/dashboard/webhooks/${id}/test`, { event: "content.created" });
  const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA, retryDelaysMs: [100, 200] } });
    wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    receiver = await startReceiver((req, res, received) => {
      if (req.url !== "/flaky") return void res.end("ok");
      const id = String(received.headers["webhook-id"]);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      res.statusCode = n < 3 ? 500 : 200;
      res.end(n < 3 ? "try again" : "ok");
    });
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it("keeps the spec 4.3 record with every option off, sends no webhook-* headers and logs nothing", async () => {
    const { record, id } = await create({ url: receiver.url("/plain") });
    expect(Object.keys(record).sort()).toEqual(["active", "created_at", "events", "format", "header_names", "id", "url"]);
    (await testDelivery(id)).expectStatus(200);
    const [req] = requestsTo("/plain");
    expect(req.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(Object.keys(req.headers).filter((h) => h.startsWith("webhook-"))).toEqual([]);
    await sleep(100);
    expect(await deliveries(id)).toEqual({ data: [], meta: { total: 0 } });
  });

  it("sets both flags on create, PUT and settings; they appear in the record only when on", async () => {
    const { record, id } = await create({ log_deliveries: true, standard_webhooks: true });
    expect(record).toMatchObject({ log_deliveries: true, standard_webhooks: true });
    expect((await owner.get(`/api/dashboard/webhooks/${id}`)).body).toMatchObject({ log_deliveries: true, standard_webhooks: true });
    const off = (await owner.put(`/api/dashboard/webhooks/${id}`, { standard_webhooks: false })).body;
    expect(off.log_deliveries).toBe(true);
    expect("standard_webhooks" in off).toBe(false);
    const settings = (await owner.put(`/api/dashboard/webhooks/${id}/settings`, { log_deliveries: false, standard_webhooks: true })).body;
    expect(settings).toMatchObject({ standard_webhooks: true, secret: expect.stringMatching(/^whsec_/) });
    expect("log_deliveries" in settings).toBe(false);
    const bad = (await owner.put(`/api/dashboard/webhooks/${id}`, { log_deliveries: "yes" })).expectStatus(400);
    expect(bad.body.error).toMatch(/log_deliveries must be true or false/);
  });

  it("logs every attempt of a 500, 500, 200 delivery; webhook-id is the same on all three; all verify", async () => {
    const { id, secret } = await create({ url: receiver.url("/flaky"), log_deliveries: true, standard_webhooks: true, headers: { Authorization: "Bearer do-not-log-me" } });
    (await owner.post("/api/dashboard/collections/posts/entries", { title: "hello" })).expectStatus(201);
    const received = await until(async () => requestsTo("/flaky"), (r) => r.length === 3);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(received[0].headers["webhook-id"]).toMatch(/^msg_[0-9a-f-]{36}$/);
    for (const r of received) {
      expect(r.headers["x-service-signature"]).toBe(hmacHex(secret, r.raw));
      expect(officialVerify(secret, r)).toBe(true);
      expect(await verifyStandardWebhook(r.raw, r.headers, secret)).toBe(true);
      expect(r.headers.authorization).toBe("Bearer do-not-log-me");
    }

    const log = await until(() => deliveries(id), (l) => l.data.length === 3);
    expect(log.meta.total).toBe(3);
    const rows = [...log.data].reverse(); // newest first in the API
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(rows.map((r) => r.response_status)).toEqual([500, 500, 200]);
    expect(rows.map((r) => r.ok)).toEqual([false, false, true]);
    expect(rows[0].error).toBe("HTTP 500");
    expect(rows[2].error).toBeNull();
    expect(new Set(rows.map((r) => r.delivery_id))).toEqual(new Set([received[0].headers["webhook-id"]]));
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ event: "content.created", format: "service", redelivery: false, custom_header_names: ["Authorization"] });
      expect(row.body).toBe(received[i].raw.toString("utf8"));
      expect(row.request_headers["X-Service-Signature"]).toBe(received[i].headers["x-service-signature"]);
      expect(row.request_headers["webhook-signature"]).toBe(received[i].headers["webhook-signature"]);
      expect(row.duration_ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(row.sent_at)).not.toBeNaN();
    }
    const text = JSON.stringify(log);
    expect(text).not.toContain("do-not-log-me");
    expect(text).not.toContain(secret);
  });

  it("redelivers a logged body re-signed with the current secret and a new timestamp, through the queue, logged", async () => {
    const { id } = await create({ url: receiver.url("/redeliver"), log_deliveries: true, standard_webhooks: true });
    (await testDelivery(id)).expectStatus(200);
    const [first] = (await until(() => deliveries(id), (l) => l.data.length === 1)).data;
    const rotated = (await owner.post(`/api/dashboard/webhooks/${id}/rotate-secret`, { window_seconds: 0 })).body;
    await sleep(5); // a different send time than the first
    const sent = (await owner.post(`/api/dashboard/webhooks/${id}/deliveries/${first.id}/redeliver`)).expectStatus(202).body;
    expect(sent).toEqual({ delivery_id: expect.stringMatching(/^msg_/), redelivery_of: first.id });
    const again = await until(async () => requestsTo("/redeliver"), (r) => r.length === 2);
    const r = again[1];
    expect(r.headers["webhook-id"]).toBe(sent.delivery_id);
    expect(r.headers["x-service-signature"]).toBe(hmacHex(rotated.secret, r.raw));
    expect(officialVerify(rotated.secret, r)).toBe(true);
    expect(await verifyStandardWebhook(r.raw, r.headers, rotated.secret)).toBe(true);
    const before = JSON.parse(first.body);
    const after = JSON.parse(r.raw.toString("utf8"));
    expect(after.data).toEqual(before.data);
    expect(after.event).toBe(before.event);
    expect(after.timestamp).not.toBe(before.timestamp);
    const log = await until(() => deliveries(id), (l) => l.data.length === 2);
    expect(log.data[0]).toMatchObject({ redelivery: true, delivery_id: sent.delivery_id, attempt: 1, response_status: 200 });
    // also addressable by the delivery's webhook-id; unknown ids are 404
    (await owner.post(`/api/dashboard/webhooks/${id}/deliveries/${first.delivery_id}/redeliver`)).expectStatus(202);
    (await owner.post(`/api/dashboard/webhooks/${id}/deliveries/nope/redeliver`)).expectStatus(404);
  });

  it("signs with both secrets during a rotation window and only the new one after it", async () => {
    const { id, secret: old } = await create({ url: receiver.url("/rotate"), standard_webhooks: true });
    const rotated = (await owner.post(`/api/dashboard/webhooks/${id}/rotate-secret`, { window_seconds: 1 })).expectStatus(200).body;
    expect(rotated.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.secret).not.toBe(old);
    const settings = (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body;
    expect(settings).toMatchObject({ secret: rotated.secret, previous_secret_until: rotated.previous_secret_until });

    (await testDelivery(id)).expectStatus(200);
    const during = requestsTo("/rotate")[0];
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(officialVerify(rotated.secret, during)).toBe(true);
    expect(officialVerify(old, during)).toBe(true);
    expect(await verifyStandardWebhook(during.raw, during.headers, old)).toBe(true);
    expect(during.headers["x-service-signature"]).toBe(hmacHex(rotated.secret, during.raw));

    await sleep(Date.parse(rotated.previous_secret_until) - Date.now() + 50);
    (await testDelivery(id)).expectStatus(200);
    const afterWindow = requestsTo("/rotate")[1];
    expect(String(afterWindow.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(officialVerify(rotated.secret, afterWindow)).toBe(true);
    expect(officialVerify(old, afterWindow)).toMatch(/No matching signature/);
    expect(await verifyStandardWebhook(afterWindow.raw, afterWindow.headers, old)).toBe(false);
    expect("previous_secret_until" in (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body).toBe(false);

    for (const window_seconds of [-1, 1.5, "60", 30 * 86_400 + 1]) {
      const bad = (await owner.post(`/api/dashboard/webhooks/${id}/rotate-secret`, { window_seconds })).expectStatus(400);
      expect(bad.body.error).toMatch(/window_seconds must be an integer from 0 to 2592000/);
    }
    (await owner.post(`/api/dashboard/webhooks/${id}/rotate-secret`, { window: 1 })).expectStatus(400);
    // the default window is 24 hours
    const defaulted = (await owner.post(`/api/dashboard/webhooks/${id}/rotate-secret`)).body;
    expect(Date.parse(defaulted.previous_secret_until) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
  });

  it("keeps the newest 100 attempts per webhook and deletes the log with the webhook", async () => {
    const { id } = await create({ url: receiver.url("/many"), log_deliveries: true, standard_webhooks: true });
    for (let i = 0; i < 105; i++) (await testDelivery(id)).expectStatus(200);
    const sentIds = requestsTo("/many").map((r) => r.headers["webhook-id"]);
    expect(sentIds).toHaveLength(105);
    const log = await until(() => deliveries(id), (l) => l.data[0]?.delivery_id === sentIds[104] && l.data.length === 100);
    expect(log.meta.total).toBe(100);
    expect(log.data.map((r) => r.delivery_id)).toEqual(sentIds.slice(5).reverse());
    const count = async () =>
      Number((await s.svc.context.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", [id]))?.n);
    expect(await count()).toBe(100);
    (await owner.delete(`/api/dashboard/webhooks/${id}`)).expectStatus(204);
    expect(await count()).toBe(0);
    (await owner.get(`/api/dashboard/webhooks/${id}/deliveries`)).expectStatus(404);
  });

  it("is owner-only: members and keys with every grant get 403, no credential 401", async () => {
    const { id } = await create({ log_deliveries: true });
    const member = s.as(await dashboardToken(s.svc.context, wsId, "member", [...ALL_GRANTS]));
    const key = s.as(await apiKey(s.svc.context, wsId, [...ALL_GRANTS]));
    const paths: [string, string][] = [
      [`/api/dashboard/webhooks/${id}/deliveries`, "GET"],
      [`/api/dashboard/webhooks/${id}/deliveries/x/redeliver`, "POST"],
      [`/api/dashboard/webhooks/${id}/rotate-secret`, "POST"],
    ];
    for (const [path, method] of paths) {
      (await member.send(method, path)).expectStatus(403);
      (await key.send(method, path)).expectStatus(403);
      (await s.send(method, path)).expectStatus(401);
    }
  });
});
