/**
 * The NUL character (U+0000) in stored strings: PostgreSQL cannot hold it (a stored `\u0000` broke
 * every sort and filter of its collection, and removing a field), so both databases refuse it with
 * a 400 naming the field, and the collection keeps working. Real HTTP (and MCP), every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { dropMail, startTestServer, type TestServer } from "../helpers/server.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";

const NUL = "\u0000";
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("NUL characters in stored strings on %s", (driver) => {
  let t: TestServer;
  let owner: string;
  let workspaceId: string;
  const api = async (path: string, method = "GET", json?: unknown, init: { body?: string | Uint8Array<ArrayBuffer>; type?: string } = {}) => {
    const res = init.body === undefined
      ? await t.request(path, { method, json, token: owner })
      : await t.request(path, { method, body: init.body, token: owner, headers: { "content-type": init.type! } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const titles = async (query = "") =>
    ((await api(`/api/dashboard/collections/posts/entries${query}`)).body.data as { title: string }[]).map((e) => e.title);
  const expectRefused = (res: { status: number; body: { error?: string; field?: string } }, path: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe(`${path}: must not contain the NUL character (U+0000)`);
    expect(res.body.field).toBe(path.split(".")[0]);
  };

  beforeAll(async () => {
    t = await startTestServer(driver, { sendMail: dropMail });
    const ws = await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", MCP_HOST], identity: true, selfSignup: true });
    workspaceId = ws.id;
    owner = (await createTestSession(t.svc.context, ws.id)).token;
    const fields = [
      { name: "title", type: "string" },
      { name: "body", type: "text" },
      { name: "meta", type: "json" },
    ];
    expect((await api("/api/dashboard/collections", "POST", { name: "posts", access: "public", fields })).status).toBe(201);
    for (const title of ["b", "a"]) expect((await api("/api/dashboard/collections/posts/entries", "POST", { title, meta: { tags: ["x"] } })).status).toBe(201);
    const form = { slug: "contact", name: "Contact", fields: [{ name: "message", type: "text", required: true }] };
    expect((await api("/api/dashboard/forms", "POST", form)).status).toBe(201);
  });
  afterAll(() => t?.close());

  it.each([
    ["a string field", { title: `a${NUL}b` }, "title"],
    ["a text field", { title: "ok", body: `line${NUL}` }, "body"],
    ["a string nested in a json field", { title: "ok", meta: { tags: ["x", `y${NUL}`] } }, "meta.tags.1"],
    ["a key inside a json field", { title: "ok", meta: { [`k${NUL}`]: 1 } }, "meta.k\\u0000"],
  ])("refuses an entry with NUL in %s: 400 naming the field", async (_what, values, path) => {
    expectRefused(await api("/api/dashboard/collections/posts/entries", "POST", values), path);
    const [first] = (await api("/api/dashboard/collections/posts/entries")).body.data as { id: string }[];
    expectRefused(await api(`/api/dashboard/collections/posts/entries/${first!.id}`, "PATCH", values), path);
  });

  it.each([
    ["a form's name", "POST", "/api/dashboard/forms", { slug: "other", name: `Con${NUL}tact` }, "name"],
    ["a collection field's name", "POST", "/api/dashboard/collections", { name: "other", fields: [{ name: `ti${NUL}tle`, type: "string" }] }, "fields.0.name"],
    ["an API key's name", "POST", "/api/dashboard/keys", { name: `build${NUL}`, grants: ["entries:read"] }, "name"],
    ["a rule's condition", "POST", "/api/dashboard/rules", { name: "pro", condition: { account: { field: "plan", in: [`pro${NUL}`] } } }, "condition.account.in.0"],
    ["a webhook header value", "POST", "/api/dashboard/webhooks", { url: "https://hooks.example.com/x", headers: { "X-Token": `t${NUL}` } }, "headers.X-Token"],
    ["an end user's email", "POST", "/api/dashboard/users", { email: `ada${NUL}@example.com`, password: PASSWORD }, "email"],
  ])("refuses NUL in %s with a 400 naming the field", async (_what, method, path, body, field) => {
    expectRefused(await api(path, method, body), field);
  });

  it("refuses NUL in an account sign-up (public route)", async () => {
    const res = await t.request("/api/v1/accounts/signup", { method: "POST", json: { email: `eve${NUL}@example.com`, password: PASSWORD } });
    expectRefused({ status: res.status, body: await res.json() }, "email");
  });

  it("refuses NUL in a filter value with a 400 naming the parameter", async () => {
    const res = await api(`/api/dashboard/collections/posts/entries?filter[title]=${encodeURIComponent(`a${NUL}`)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("filter[title]: must not contain the NUL character (U+0000)");
  });

  it("refuses NUL in a form submission as JSON, urlencoded and multipart; nothing is stored", async () => {
    const submit = (body: string | Uint8Array<ArrayBuffer>, type: string) =>
      t.request("/api/v1/forms/contact/submit", { method: "POST", body, headers: { "content-type": type } });
    const form = new FormData();
    form.set("message", `hi${NUL}`);
    const multipart = new Response(form);
    for (const res of [
      await submit(JSON.stringify({ message: `hi${NUL}` }), "application/json"),
      await submit(`message=hi%00`, "application/x-www-form-urlencoded"),
      await submit(new Uint8Array(await multipart.arrayBuffer()), multipart.headers.get("content-type")!),
    ]) {
      expectRefused({ status: res.status, body: await res.json() }, "message");
    }
    const stored = await api("/api/dashboard/forms/contact/submissions");
    expect(stored.status).toBe(200);
    expect(stored.body.data).toEqual([]);
  });

  it("refuses NUL through MCP too (the entry validator, not only the HTTP body parser)", async () => {
    const { token } = await createTestKey(t.svc.context, workspaceId, ["entries:write", "entries:read"]);
    const client = await connectClient(t, token);
    try {
      const result = await callTool(client, "create_item", { collection: "posts", fields: { title: "mcp", meta: { deep: [{ s: `x${NUL}` }] } } });
      expect(result.isError).toBe(true);
      expect(result.text).toBe("meta.deep.0.s: must not contain the NUL character (U+0000)");
    } finally {
      await client.close();
    }
  });

  it("storage refuses NUL on both databases for callers that skip the validators (embedders)", async () => {
    const keys = async () => (await t.svc.context.sql.all("SELECT id FROM api_keys WHERE workspace_id = ?", [workspaceId])).length;
    const before = await keys();
    await expect(createTestKey(t.svc.context, workspaceId, ["entries:read"], `raw${NUL}`)).rejects.toMatchObject({
      status: 400,
      message: "A text value must not contain the NUL character (U+0000)",
    });
    expect(await keys()).toBe(before);
  });

  it("the collection keeps working afterwards: list, sort, filter, and removing a field", async () => {
    expect(await titles("?sort=title")).toEqual(["a", "b"]);
    expect(await titles("?sort=-title&filter[title]=b")).toEqual(["b"]);
    const list = await t.request("/api/v1/posts?sort=title&filter[title]=a", {});
    expect(list.status).toBe(200);
    const removed = await api("/api/dashboard/collections/posts", "PUT", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }, { name: "meta", type: "json" }] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await titles("?sort=title")).toEqual(["a", "b"]);
  });
});
