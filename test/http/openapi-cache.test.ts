/**
 * GET /api/openapi.json is built once per workspace, content version and visibility class, then
 * served from the cache (http/openapi-cache.ts counts its builds), with a strong ETag answered
 * 304 on If-None-Match. A collection created or altered is in the very next document; a key or
 * session without collections:read shares the anonymous document, one with it the full one.
 * Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiCache } from "../../src/http/openapi-cache.js";
import { drivers } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";

type Doc = { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };

describe.each(drivers)("OpenAPI document cache on %s", (driver) => {
  let t: TestServer;
  let wsId: string;
  let owner: string;
  beforeAll(async () => {
    t = await startTestServer(driver);
    wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(t.svc.context, wsId, "owner");
    await createCollection({ name: "posts", access: "public", fields: [{ name: "title", type: "string" }] });
    await createCollection({ name: "secrets", access: "private", fields: [{ name: "title", type: "string" }] });
  });
  afterAll(() => t?.close());

  async function createCollection(json: unknown) {
    expect((await t.request("/api/dashboard/collections", { method: "POST", token: owner, json })).status).toBe(201);
  }
  const builds = () => openApiCache(t.svc.context).builds;
  const read = async (token?: string, etag?: string) => {
    const res = await t.request("/api/openapi.json", { token, headers: etag ? { "if-none-match": etag } : {} });
    return { status: res.status, etag: res.headers.get("etag") ?? "", text: await res.text() };
  };
  const schemasOf = (text: string) => Object.keys((JSON.parse(text) as Doc).components.schemas).filter((s) => s.startsWith("Entry_"));

  it("builds the same document once and serves it again unchanged", async () => {
    const first = await read();
    const before = builds();
    const again = await read();
    const third = await read();
    expect(builds()).toBe(before);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(third.etag).toBe(first.etag);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it("answers 304 with no body to a matching If-None-Match, 200 to another tag", async () => {
    const { etag, text } = await read();
    const notModified = await read(undefined, etag);
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");
    expect(notModified.etag).toBe(etag);
    expect((await read(undefined, `W/${etag}, "other"`)).status).toBe(304);
    const other = await read(undefined, '"stale"');
    expect(other.status).toBe(200);
    expect(other.text).toBe(text);
  });

  it("a collection created or altered is in the next document, under a new ETag", async () => {
    const before = await read();
    expect(schemasOf(before.text)).not.toContain("Entry_news");
    await createCollection({ name: "news", access: "public", fields: [{ name: "headline", type: "string" }] });
    const created = await read(undefined, before.etag);
    expect(created.status).toBe(200);
    expect(schemasOf(created.text)).toContain("Entry_news");

    const put = await t.request("/api/dashboard/collections/news", {
      method: "PUT",
      token: owner,
      json: { name: "news", access: "public", fields: [{ name: "headline", type: "string" }, { name: "summary", type: "text" }] },
    });
    expect(put.status).toBe(200);
    const altered = await read(undefined, created.etag);
    expect(altered.status).toBe(200);
    expect(Object.keys((JSON.parse(altered.text) as Doc).components.schemas.Entry_news!.properties!)).toContain("summary");
  });

  it("differs by visibility class only: anonymous and no collections:read share one document, collections:read and owners another", async () => {
    const anonymous = await read();
    const bare = await read(await apiKey(t.svc.context, wsId, ["media:read"]));
    const member = await read(await dashboardToken(t.svc.context, wsId, "member", ["forms:read"]));
    const reader = await read(await apiKey(t.svc.context, wsId, ["collections:read"]));
    const before = builds();
    const ownerDoc = await read(owner);
    expect(builds()).toBe(before);
    expect(schemasOf(anonymous.text)).not.toContain("Entry_secrets");
    expect(schemasOf(reader.text)).toContain("Entry_secrets");
    expect([bare.etag, member.etag]).toEqual([anonymous.etag, anonymous.etag]);
    expect(ownerDoc.etag).toBe(reader.etag);
    expect(reader.etag).not.toBe(anonymous.etag);
    // The full document's tag never validates the anonymous one.
    expect((await read(undefined, reader.etag)).status).toBe(200);
  });
});
