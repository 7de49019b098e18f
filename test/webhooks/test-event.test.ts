/**
 * Which event a test delivery (POST /api/dashboard/webhooks/{id}/test) sends, over real HTTP to a
 * real HTTPS receiver: without `event`, the first event the webhook is subscribed to (never an
 * event it would not get); with `event`, that event, subscribed or not (a test may try an event
 * before subscribing); an unknown name is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";

describe.each(drivers)("test delivery event on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await startTestServer(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    const wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const create = async (events: string[]) => {
    const res = await t.request("/api/dashboard/webhooks", { method: "POST", token: owner, json: { url: receiver.url(`/${events.join("-")}`), events } });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; events: string[] };
  };
  /** Sends a test delivery and answers the event name the receiver got. */
  const sent = async (id: string, json?: unknown) => {
    const before = receiver.requests.length;
    const res = await t.request(`/api/dashboard/webhooks/${id}/test`, { method: "POST", token: owner, ...(json === undefined ? {} : { json }) });
    expect(res.status).toBe(200);
    expect((await res.json()).ok).toBe(true);
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    return JSON.parse(got!.raw.toString()).event as string;
  };

  it("without an event, sends the one event a webhook subscribed only to content.published gets", async () => {
    const { id } = await create(["content.published"]);
    expect(await sent(id)).toBe("content.published");
    expect(await sent(id, {})).toBe("content.published");
  });

  it("without an event, sends the first of the webhook's events", async () => {
    const hook = await create(["form.submitted", "content.deleted"]);
    expect(hook.events).toHaveLength(2);
    expect(await sent(hook.id, {})).toBe(hook.events[0]);
  });

  it("an explicit event is sent as asked, subscribed or not; an unknown one is 400", async () => {
    const { id } = await create(["content.published", "content.deleted"]);
    expect(await sent(id, { event: "content.deleted" })).toBe("content.deleted");
    expect(await sent(id, { event: "content.created" })).toBe("content.created");
    const bad = await t.request(`/api/dashboard/webhooks/${id}/test`, { method: "POST", token: owner, json: { event: "content.exploded" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain("event must be one of the six event names");
  });
});
