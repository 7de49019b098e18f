/**
 * The scenario helper checks what it claims: expectStatus, expectBody and expectEvents fail on a
 * wrong status, body or event list and pass on the right one, so a suite built on them cannot pass
 * by accident. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSession } from "./credentials.js";
import { drivers } from "./database.js";
import { scenario, type Caller, type ServerScenario } from "./scenario.js";

describe.each(drivers)("scenario helper on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    owner = s.as((await createTestSession(s.svc.context, ws.id)).token);
    (await owner.post("/api/dashboard/collections", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
    s.clearEvents();
  });
  afterAll(() => s?.close());

  it("expectStatus passes on the status received and fails, naming method, path and body, on any other", async () => {
    const r = await s.get("/api/v1/nope");
    expect(r.expectStatus(404)).toBe(r);
    expect(() => r.expectStatus(200)).toThrow(/GET \/api\/v1\/nope → .*Unknown collection: nope/);
    expect(() => r.expectStatus(400)).toThrow();
  });

  it("expectBody passes on a fragment of the body and fails on a wrong value, a missing key or a different array", async () => {
    const created = (await owner.post("/api/dashboard/collections/posts/entries", { title: "Hi", _status: "published" })).expectStatus(201);
    created.expectBody({ title: "Hi", _status: "published" });
    expect(() => created.expectBody({ title: "Bye" })).toThrow(/POST \/api\/dashboard\/collections\/posts\/entries/);
    expect(() => created.expectBody({ subtitle: "Hi" })).toThrow();
    const list = (await s.get("/api/v1/posts")).expectStatus(200);
    list.expectBody({ data: [{ title: "Hi" }] });
    // Arrays compare element for element: one entry too many or too few fails.
    expect(() => list.expectBody({ data: [] })).toThrow();
    expect(() => list.expectBody({ data: [{ title: "Hi" }, { title: "Hi" }] })).toThrow();
    s.clearEvents();
  });

  it("expectBody fails when the response has no JSON body", async () => {
    const r = (await s.send("HEAD", "/api/v1/posts")).expectStatus(200);
    expect(r.body).toBeUndefined();
    expect(() => r.expectBody({})).toThrow();
  });

  it("a result equals {status, body} and nothing else", async () => {
    const r = await s.get("/api/v1/nope");
    expect(r).toEqual({ status: 404, body: { error: "Unknown collection: nope" } });
    expect(r).not.toEqual({ status: 404, body: { error: "other" } });
  });

  it("expectEvents passes on exactly the events fired, in order, then starts afresh", async () => {
    const id = (await owner.post("/api/dashboard/collections/posts/entries", { title: "a", _status: "published" })).expectStatus(201).body.id;
    expect(s.events.map((e) => e.event)).toEqual(["content.created", "content.published"]);
    const fired = s.expectEvents(["content.created", "content.published"]);
    expect(fired[0]).toMatchObject({ event: "content.created", data: { collection: "posts", entry: { id, title: "a" } } });
    expect(s.events).toEqual([]);
    s.expectEvents([]);
  });

  it("expectEvents fails on a missing, an extra, a wrong or a reordered event", async () => {
    const fire = async () => (await owner.post("/api/dashboard/collections/posts/entries", { title: "b", _status: "published" })).expectStatus(201);
    for (const wrong of [[], ["content.created"], ["content.created", "content.published", "content.updated"], ["content.created", "content.updated"], ["content.published", "content.created"]] as const) {
      await fire();
      expect(() => s.expectEvents(wrong)).toThrow();
    }
    // A nothing-happened check fails when something did.
    await owner.post("/api/dashboard/collections/posts/entries", { title: "c" });
    expect(() => s.expectEvents([])).toThrow();
    // A failed check still consumes what it saw: the next check starts afresh.
    s.expectEvents([]);
  });

  it("a caller's defaults apply to each request and a per-request init wins", async () => {
    let n = 0;
    const caller = s.as(undefined, { host: "other.localhost", headers: () => ({ "x-request-id": `r${++n}` }) });
    // other.localhost names no workspace: the host default is what was sent.
    (await caller.get("/api/v1/posts")).expectStatus(404);
    (await caller.get("/api/v1/posts", { host: "demo.localhost" })).expectStatus(200);
    expect(n).toBe(2);
  });
});
