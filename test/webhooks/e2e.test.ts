/**
 * End to end: writes through the HTTP API fire the events of spec section 3, delivered to real
 * HTTPS receivers in the shapes of spec 6.1–6.3, signed, coalesced, and only to active,
 * subscribed webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { dashboardToken } from "../helpers/sessions.js";
import { CA, startReceiver, type Receiver } from "./helpers.js";
import { EVENT_NAMES } from "../../src/core/events.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(drivers)("webhook deliveries from HTTP writes on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let all: Receiver;
  let deletedOnly: Receiver;
  let inactive: Receiver;
  let dispatch: Receiver;
  const secrets: Record<string, string> = {};
  const api = (path: string, method = "GET", json?: unknown) => t.request(path, { method, json, token: owner });
  const events = (r: Receiver) => r.requests.map((q) => JSON.parse(q.raw.toString()));

  beforeAll(async () => {
    t = await startTestServer(driver, { allowPrivateWebhookTargets: true, webhooks: { ca: CA } });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = await dashboardToken(t.svc.context, ws.id, "owner");
    [all, deletedOnly, inactive, dispatch] = await Promise.all([startReceiver(), startReceiver(), startReceiver(), startReceiver()]);
    const hook = async (name: string, r: Receiver, body: Record<string, unknown>) => {
      const res = await api("/api/dashboard/webhooks", "POST", { url: r.url(), ...body });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      secrets[name] = (await (await api(`/api/dashboard/webhooks/${id}/settings`)).json()).secret;
    };
    await hook("all", all, { events: [...EVENT_NAMES] });
    await hook("deleted", deletedOnly, { events: ["content.deleted"] });
    await hook("inactive", inactive, { events: [...EVENT_NAMES], active: false });
    await hook("dispatch", dispatch, { events: ["content.published"], format: "code_host_repository_dispatch" });
    expect((await api("/api/dashboard/collections", "POST", { name: "tags", access: "public", fields: [{ name: "label", type: "string" }] })).status).toBe(201);
    expect((await api("/api/dashboard/collections", "POST", { name: "authors", access: "public", fields: [{ name: "name", type: "string" }] })).status).toBe(201);
    const posts = await api("/api/dashboard/collections", "POST", {
      name: "posts",
      access: "public",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "author", type: "relation", collection: "authors" },
        { name: "tags", type: "relations", collection: "tags" },
      ],
    });
    expect(posts.status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([all, deletedOnly, inactive, dispatch].map((r) => r?.close()));
    await t?.close();
  });

  it("delivers the lifecycle of an entry, signed, in the service envelope, with no User-Agent", async () => {
    const tag = await (await api("/api/dashboard/collections/tags/entries", "POST", { label: "news", _status: "published" })).json();
    const author = await (await api("/api/dashboard/collections/authors/entries", "POST", { name: "Ada", _status: "published" })).json();
    await all.waitFor(4); // tag and author: created + published each
    const start = all.requests.length;

    const created = await api("/api/dashboard/collections/posts/entries", "POST", { title: "v1", author: author.id, tags: [tag.id] });
    expect(created.status).toBe(201);
    const id = (await created.json()).id;
    await all.waitFor(start + 1);
    expect((await api(`/api/dashboard/collections/posts/entries/${id}`, "PATCH", { _status: "published" })).status).toBe(200);
    await all.waitFor(start + 2);
    expect((await api(`/api/dashboard/collections/posts/entries/${id}`, "PATCH", { _status: "draft" })).status).toBe(200);
    await all.waitFor(start + 3);
    // three rapid saves with the status unchanged: one content.updated with the last state
    for (const title of ["v2", "v3", "v4"]) expect((await api(`/api/dashboard/collections/posts/entries/${id}`, "PATCH", { title })).status).toBe(200);
    await all.waitFor(start + 4);
    await sleep(800);
    expect((await api(`/api/dashboard/collections/posts/entries/${id}`, "DELETE")).status).toBe(200);
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
    await api("/api/dashboard/collections/posts/entries", "POST", { title: "straight out", _status: "published" });
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
