/**
 * The NUL character (U+0000) in stored strings: PostgreSQL cannot hold it (a stored `\u0000` broke
 * every sort and filter of its collection, and removing a field), so both databases refuse it with
 * a 400 naming the field, and the collection keeps working. Real HTTP (and MCP), every driver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type ServerScenario } from "../helpers/scenario.js";
import { dropMail } from "../helpers/server.js";
import { callTool, connectClient, MCP_HOST } from "../mcp/helpers.js";

const NUL = "\u0000";
const PASSWORD = "correct horse battery staple";

describe.each(drivers)("NUL characters in stored strings on %s", (driver) => {
  let s: ServerScenario;
  let owner: string;
  let workspaceId: string;
  const titles = async (query = "") =>
    ((await s.as(owner).get(`/api/dashboard/collections/posts/entries${query}`)).body.data as { title: string }[]).map((e) => e.title);
  const expectRefused = (res: { status: number; body: { error?: string; field?: string } }, path: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe(`${path}: must not contain the NUL character (U+0000)`);
    expect(res.body.field).toBe(path.split(".")[0]);
  };

  beforeAll(async () => {
    s = await scenario(driver, { sendMail: dropMail });
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost", MCP_HOST], identity: true, selfSignup: true });
    workspaceId = ws.id;
    owner = (await createTestSession(s.svc.context, ws.id)).token;
    const fields = [
      { name: "title", type: "string" },
      { name: "body", type: "text" },
      { name: "meta", type: "json" },
    ];
    expect((await s.as(owner).post("/api/dashboard/collections", { name: "posts", access: "public", fields })).status).toBe(201);
    for (const title of ["b", "a"]) expect((await s.as(owner).post("/api/dashboard/collections/posts/entries", { title, meta: { tags: ["x"] } })).status).toBe(201);
    const form = { slug: "contact", name: "Contact", fields: [{ name: "message", type: "text", required: true }] };
    expect((await s.as(owner).post("/api/dashboard/forms", form)).status).toBe(201);
  });
  afterAll(() => s?.close());

  it.each([
    ["a string field", { title: `a${NUL}b` }, "title"],
    ["a text field", { title: "ok", body: `line${NUL}` }, "body"],
    ["a string nested in a json field", { title: "ok", meta: { tags: ["x", `y${NUL}`] } }, "meta.tags.1"],
    ["a key inside a json field", { title: "ok", meta: { [`k${NUL}`]: 1 } }, "meta.k\\u0000"],
  ])("refuses an entry with NUL in %s: 400 naming the field", async (_what, values, path) => {
    expectRefused(await s.as(owner).post("/api/dashboard/collections/posts/entries", values), path);
    const [first] = (await s.as(owner).get("/api/dashboard/collections/posts/entries")).body.data as { id: string }[];
    expectRefused(await s.as(owner).patch(`/api/dashboard/collections/posts/entries/${first!.id}`, values), path);
  });

  it.each([
    ["a form's name", "POST", "/api/dashboard/forms", { slug: "other", name: `Con${NUL}tact` }, "name"],
    ["a collection field's name", "POST", "/api/dashboard/collections", { name: "other", fields: [{ name: `ti${NUL}tle`, type: "string" }] }, "fields.0.name"],
    ["an API key's name", "POST", "/api/dashboard/keys", { name: `build${NUL}`, grants: ["entries:read"] }, "name"],
    ["a rule's condition", "POST", "/api/dashboard/rules", { name: "pro", condition: { account: { field: "plan", in: [`pro${NUL}`] } } }, "condition.account.in.0"],
    ["a webhook header value", "POST", "/api/dashboard/webhooks", { url: "https://hooks.example.com/x", headers: { "X-Token": `t${NUL}` } }, "headers.X-Token"],
    ["an end user's email", "POST", "/api/dashboard/users", { email: `ada${NUL}@example.com`, password: PASSWORD }, "email"],
  ])("refuses NUL in %s with a 400 naming the field", async (_what, method, path, body, field) => {
    expectRefused(await s.as(owner).send(method, path, body), field);
  });

  it("refuses NUL in an account sign-up (public route)", async () => {
    expectRefused(await s.post("/api/v1/accounts/signup", { email: `eve${NUL}@example.com`, password: PASSWORD }), "email");
  });

  it("refuses NUL in a filter value with a 400 naming the parameter", async () => {
    const res = await s.as(owner).get(`/api/dashboard/collections/posts/entries?filter[title]=${encodeURIComponent(`a${NUL}`)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("filter[title]: must not contain the NUL character (U+0000)");
  });

  it("refuses NUL in a form submission as JSON, urlencoded and multipart; nothing is stored", async () => {
    const submit = (body: string | Uint8Array<ArrayBuffer>, type: string) =>
      s.post("/api/v1/forms/contact/submit", undefined, { body, headers: { "content-type": type } });
    const form = new FormData();
    form.set("message", `hi${NUL}`);
    const multipart = new Response(form);
    for (const res of [
      await submit(JSON.stringify({ message: `hi${NUL}` }), "application/json"),
      await submit(`message=hi%00`, "application/x-www-form-urlencoded"),
      await submit(new Uint8Array(await multipart.arrayBuffer()), multipart.headers.get("content-type")!),
    ]) {
      expectRefused(res, "message");
    }
    const stored = await s.as(owner).get("/api/dashboard/forms/contact/submissions");
    expect(stored.status).toBe(200);
    expect(stored.body.data).toEqual([]);
  });

  it("refuses NUL through MCP too (the entry validator, not only the HTTP body parser)", async () => {
    const { token } = await createTestKey(s.svc.context, workspaceId, ["entries:write", "entries:read"]);
    const client = await connectClient(s.t, token);
    try {
      const result = await callTool(client, "create_item", { collection: "posts", fields: { title: "mcp", meta: { deep: [{ s: `x${NUL}` }] } } });
      expect(result.isError).toBe(true);
      expect(result.text).toBe("meta.deep.0.s: must not contain the NUL character (U+0000)");
    } finally {
      await client.close();
    }
  });

  it("storage refuses NUL on both databases for callers that skip the validators (embedders)", async () => {
    const keys = async () => (await s.svc.context.sql.all("SELECT id FROM api_keys WHERE workspace_id = ?", [workspaceId])).length;
    const before = await keys();
    await expect(createTestKey(s.svc.context, workspaceId, ["entries:read"], `raw${NUL}`)).rejects.toMatchObject({
      status: 400,
      message: "A text value must not contain the NUL character (U+0000)",
    });
    expect(await keys()).toBe(before);
  });

  it("the collection keeps working afterwards: list, sort, filter, and removing a field", async () => {
    expect(await titles("?sort=title")).toEqual(["a", "b"]);
    expect(await titles("?sort=-title&filter[title]=b")).toEqual(["b"]);
    const list = await s.get("/api/v1/posts?sort=title&filter[title]=a");
    expect(list.status).toBe(200);
    const removed = await s.as(owner).put("/api/dashboard/collections/posts", { name: "posts", access: "public", fields: [{ name: "title", type: "string" }, { name: "meta", type: "json" }] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await titles("?sort=title")).toEqual(["a", "b"]);
  });
});
