/**
 * Helpers of the durable-delivery suites: services on a database that outlives them (restarts,
 * several instances), a webhook made through the dashboard API, signature checks and a clock
 * the test moves.
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { createService, type Service, type ServiceOptions } from "../../src/service.js";
import { callerAt } from "../helpers/scenario.js";
import { silentLogger } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, type Received, type Receiver } from "./helpers.js";

export const SECRET_KEY = Buffer.alloc(32, 5).toString("base64");

export interface Running {
  svc: Service;
  base: string;
  close(): Promise<void>;
}

/** A durable service over real HTTP on `database` (polling fast, so tests wait little). */
export async function startDurable(database: string, dataDir: string, options: ServiceOptions = {}): Promise<Running> {
  const svc = await createService({
    database,
    dataDir,
    blobs: "memory:",
    secretKey: SECRET_KEY,
    logger: silentLogger(),
    insecureFastPasswordHashing: true,
    allowPrivateWebhookTargets: true,
    ...options,
    webhooks: { ca: CA, durable: true, durablePollMs: 40, ...options.webhooks },
  });
  const server = createServer(svc.handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    svc,
    base,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
    },
  };
}

export interface Seeded {
  workspaceId: string;
  owner: string;
  secret: string;
  webhookId: string;
}

/** Workspace demo, a `posts` collection and one webhook to `receiver` with `settings` (debounce). */
export async function seed(r: Running, receiver: Receiver, webhook: Record<string, unknown> = {}, settings: Record<string, unknown> = {}): Promise<Seeded> {
  const ws = await r.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
  const owner = await dashboardToken(r.svc.context, ws.id, "owner");
  const api = callerAt(r.base, owner);
  (await api.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
  const events = ["content.created", "content.updated", "content.published", "content.deleted", "form.submitted"];
  const { id } = (await api.post("/api/dashboard/webhooks", { url: receiver.url(), events, ...webhook })).expectStatus(201).body;
  if (Object.keys(settings).length > 0) (await api.put(`/api/dashboard/webhooks/${id}/settings`, settings)).expectStatus(200);
  const { secret } = (await api.get(`/api/dashboard/webhooks/${id}/settings`)).body;
  return { workspaceId: ws.id, owner, secret, webhookId: id };
}

/** Asserts the spec 6.4 signature and returns the parsed body. */
export function verified(received: Received, secret: string): any {
  expect(received.headers["x-service-signature"]).toBe("sha256=" + createHmac("sha256", secret).update(received.raw).digest("hex"));
  return JSON.parse(received.raw.toString());
}

/** A clock the test moves by hand; timers are real (they only bound I/O in durable mode). */
export function steppedClock(start = Date.now()) {
  let offset = 0;
  return {
    now: () => start + offset,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    advance(ms: number) {
      offset += ms;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Outbox rows by state (what a test can see of the table). */
export async function outboxStates(svc: Service): Promise<Record<string, number>> {
  const rows = await svc.context.sql.all<{ state: string; n: number | string }>("SELECT state, COUNT(*) AS n FROM webhook_outbox GROUP BY state");
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
