/**
 * Which event a test delivery (POST /api/dashboard/webhooks/{id}/test) sends, over real HTTP to a
 * real HTTPS receiver: without `event`, the first event the webhook is subscribed to (never an
 * event it would not get); with `event`, that event, subscribed or not (a test may try an event
 * before subscribing); an unknown name is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";

describe.each(drivers)("test delivery event on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let receiver: Receiver;

  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    const wsId = (await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = s.as(await dashboardToken(s.svc.context, wsId, "owner"));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const create = async (events: string[]) => {
    const res = await owner.post("/api/dashboard/webhooks", { url: receiver.url(`/${events.join("-")}`), events });
    return res.expectStatus(201).body as { id: string; events: string[] };
  };
  /** Sends a test delivery and answers the event name the receiver got. */
  const sent = async (id: string, json?: unknown) => {
    const before = receiver.requests.length;
    (await owner.post(`/api/dashboard/webhooks/${id}/test`, json)).expectStatus(200).expectBody({ ok: true });
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
    const bad = (await owner.post(`/api/dashboard/webhooks/${id}/test`, { event: "content.exploded" })).expectStatus(400);
    expect(bad.body.error).toContain("event must be one of the six event names");
  });
});
