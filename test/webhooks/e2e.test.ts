/**
 * End to end: writes through the HTTP API fire the events of spec section 3, delivered to real
 * HTTPS receivers in the shapes of spec 6.1–6.3, signed, coalesced, and only to active,
 * subscribed webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";
import { EVENT_NAMES } from "../../src/core/events.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(drivers)("webhook deliveries from HTTP writes on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let all: Receiver;
  let deletedOnly: Receiver;
  let inactive: Receiver;
  let dispatch: Receiver;
  const secrets: Record<string, string> = {};
  const events = (r: Receiver) => r.requests.map((q) => JSON.parse(q.raw.toString()));

  beforeAll(async () => {
    s = await scenario(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = s.as(await dashboardToken(s.svc.context, ws.id, "owner"));
    [all, deletedOnly, inactive, dispatch] = await Promise.all([startReceiver(), startReceiver(), startReceiver(), startReceiver()]);
    const hook = async (name: string, r: Receiver, body: Record<string, unknown>) => {
      const { id } = (await owner.post("/api/dashboard/webhooks", { url: r.url(), ...body })).expectStatus(201).body;
      secrets[name] = (await owner.get(`/api/dashboard/webhooks/${id}/settings`)).body.secret;
    };
    await hook("all", all, { events: [...EVENT_NAMES] });
    await hook("deleted", deletedOnly, { events: ["content.deleted"] });
    await hook("inactive", inactive, { events: [...EVENT_NAMES], active: false });
    await hook("dispatch", dispatch, { events: ["content.published"], format: "code_host_repository_dispatch" });
    (await owner.post("/api/dashboard/collections", { name: "tags", access: "public", fields: [{ name: "label", type: "string" }] })).expectStatus(201);
    (await owner.post("/api/dashboard/collections", { name: "authors", access: "public", fields: [{ name: "name", type: "string" }] })).expectStatus(201);
    const posts = await owner.post("/api/dashboard/collections", {
      name: "posts",
      access: "public",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "author", type: "relation", collection: "authors" },
        { name: "tags", type: "relations", collection: "tags" },
      ],
    });
    posts.expectStatus(201);
  });
  afterAll(async () => {
    await Promise.all([all, deletedOnly, inactive, dispatch].map((r) => r?.close()));
    await s?.close();
  });

  it("delivers the lifecycle of an entry, signed, in the service envelope, with no User-Agent", async () => {
    const tag = (await owner.post("/api/dashboard/collections/tags/entries", { label: "news", _status: "published" })).body;
    const author = (await owner.post("/api/dashboard/collections/authors/entries", { name: "Ada", _status: "published" })).body;
    await all.waitFor(4); // tag and author: created + published each
    const start = all.requests.length;

    const { id } = (await owner.post("/api/dashboard/collections/posts/entries", { title: "v1", author: author.id, tags: [tag.id] })).expectStatus(201).body;
    await all.waitFor(start + 1);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${id}`, { _status: "published" })).expectStatus(200);
    await all.waitFor(start + 2);
    (await owner.patch(`/api/dashboard/collections/posts/entries/${id}`, { _status: "draft" })).expectStatus(200);
    await all.waitFor(start + 3);
    // three rapid saves with the status unchanged: one content.updated with the last state
    for (const title of ["v2", "v3", "v4"]) (await owner.patch(`/api/dashboard/collections/posts/entries/${id}`, { title })).expectStatus(200);
    await all.waitFor(start + 4);
    await sleep(800);
    (await owner.delete(`/api/dashboard/collections/posts/entries/${id}`)).expectStatus(200);
    await all.waitFor(start + 5);

    const got = all.requests.slice(start);
    expect(got.map((r) => JSON.parse(r.raw.toString()).event)).toEqual([
      "content.created",
      "content.published",
      "content.unpublished",
      "content.updated",
      "content.deleted",
    ]);
    for (const r of got) {
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["user-agent"]).toBeUndefined(); // spec 6.6: no dedicated User-Agent
      expect(r.headers["x-service-signature"]).toBe("sha256=" + createHmac("sha256", secrets.all).update(r.raw).digest("hex"));
      const body = JSON.parse(r.raw.toString());
      expect(Object.keys(body).sort()).toEqual(["data", "event", "timestamp"]);
      expect(Object.keys(body.data).sort()).toEqual(["collection", "entry"]);
      expect(body.data.collection).toBe("posts");
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const entry = body.data.entry;
      expect(entry.id).toBe(id);
      expect(entry).not.toHaveProperty("tags"); // many-to-many: absent as a key (spec 2.5)
      expect(entry.author).toBe(author.id); // one-to-many: present
      expect(entry._created_by).toMatch(/^[0-9a-f-]{36}$/);
      for (const k of ["_status", "_published_at", "_created_at", "_updated_at"]) expect(entry).toHaveProperty(k);
    }
    const bodies = got.map((r) => JSON.parse(r.raw.toString()));
    expect(bodies[1].data.entry._status).toBe("published");
    expect(bodies[1].data.entry._published_at).toMatch(/\.\d{3}Z$/);
    expect(bodies[3].data.entry.title).toBe("v4");
    expect(bodies[4].data.entry).toMatchObject({ title: "v4", _status: "draft" }); // as it was at deletion
  });

  it("fires created and published for an entry created as published", async () => {
    const start = all.requests.length;
    await owner.post("/api/dashboard/collections/posts/entries", { title: "straight out", _status: "published" });
    await all.waitFor(start + 2);
    expect(events(all).slice(start).map((b) => b.event).sort()).toEqual(["content.created", "content.published"]);
  });

  it("sends only subscribed events, and nothing to an inactive webhook", async () => {
    await sleep(300);
    expect(events(deletedOnly).map((b) => b.event)).toEqual(["content.deleted"]);
    expect(inactive.requests).toHaveLength(0);
  });

  it("reshapes the body for code_host_repository_dispatch and signs that body", async () => {
    await dispatch.waitFor(1);
    for (const r of dispatch.requests) {
      expect(r.headers["x-service-signature"]).toBe("sha256=" + createHmac("sha256", secrets.dispatch).update(r.raw).digest("hex"));
      const body = JSON.parse(r.raw.toString());
      expect(Object.keys(body).sort()).toEqual(["client_payload", "event_type"]);
      expect(body.event_type).toBe("service.content.published");
      expect(Object.keys(body.client_payload).sort()).toEqual(["collection", "entryId", "event", "timestamp"]);
      expect(body.client_payload.event).toBe("content.published");
    }
  });
});
