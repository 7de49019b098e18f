/**
 * Narrowed API keys (docs/access.md "Narrowed keys") over real HTTP and MCP, both drivers: a key
 * limited to some collections reads and writes nothing outside them; a key limited to published
 * entries never sees a draft; on every surface (dashboard API, delivery, SDK, OpenAPI, MCP). And
 * a narrowing never grants: whatever a narrowed key gets, the same key unnarrowed gets too.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Grant } from "../../src/core/grants.js";
import { createTestSession } from "../helpers/credentials.js";
import { drivers } from "../helpers/database.js";
import { scenario, type Caller, type Result, type ServerScenario } from "../helpers/scenario.js";
import { MCP_HOST, callTool, connectClient } from "../mcp/helpers.js";

type Narrowing = { collections?: string[] | null; published_only?: boolean };

describe.each(drivers)("narrowed API keys on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  const ids: Record<string, string> = {};
  const keys: Record<string, { caller: Caller; token: string; record: any }> = {};
  const clients: Client[] = [];

  const makeKey = async (label: string, grants: Grant[], narrowing: Narrowing = {}) => {
    const created = (await owner.post("/api/dashboard/keys", { name: label, grants, ...narrowing })).expectStatus(201).body;
    keys[label] = { caller: s.as(created.value, { host: MCP_HOST }), token: created.value, record: created };
    return created;
  };
  const mcp = async (label: string) => {
    const client = await connectClient(s.t, keys[label]!.token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "narrow", hosts: [MCP_HOST] });
    owner = s.as((await createTestSession(s.svc.context, ws.id)).token, { host: MCP_HOST });
    const col = async (json: unknown) => (await owner.post("/api/dashboard/collections", json)).expectStatus(201);
    const entry = async (label: string, collection: string, json: Record<string, unknown>) =>
      (ids[label] = (await owner.post(`/api/dashboard/collections/${collection}/entries`, json)).expectStatus(201).body.id);
    const rule = (await owner.post("/api/dashboard/rules", { name: "signed in", condition: { signed_in: true } })).expectStatus(201).body;
    await col({ name: "authors", access: "private", fields: [{ name: "name", type: "string", required: true }] });
    await col({
      name: "posts",
      access: "private",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "author", type: "relation", collection: "authors" },
        { name: "related", type: "relations", collection: "posts" },
      ],
    });
    await col({ name: "secrets", access: "private", fields: [{ name: "title", type: "string", required: true }] });
    await col({ name: "members_only", access: "gated", rule: rule.id, fields: [{ name: "title", type: "string", required: true }] });
    await col({ name: "pages", access: "public", fields: [{ name: "title", type: "string", required: true }] });
    await entry("authorLive", "authors", { name: "Ann", _status: "published" });
    await entry("authorDraft", "authors", { name: "Unannounced" });
    await entry("postDraft", "posts", { title: "Embargoed launch" });
    await entry("postLive", "posts", { title: "Hello", author: ids.authorLive, related: [ids.postDraft], _status: "published" });
    await entry("postByDraft", "posts", { title: "Guest", author: ids.authorDraft, _status: "published" });
    await entry("secretLive", "secrets", { title: "Salaries", _status: "published" });
    await entry("secretDraft", "secrets", { title: "Layoffs" });
    await entry("gatedLive", "members_only", { title: "Members news", _status: "published" });
    await entry("pageLive", "pages", { title: "About", _status: "published" });

    await makeKey("wide", ["entries:read"]);
    await makeKey("posts", ["entries:read"], { collections: ["posts"] });
    await makeKey("published", ["entries:read"], { published_only: true });
    await makeKey("site", ["entries:read"], { collections: ["posts", "authors"], published_only: true });
    await makeKey("writer", ["entries:write"], { collections: ["posts", "authors"], published_only: true });
    await makeKey("writerWide", ["entries:write"]);
    await makeKey("schema", ["collections:write", "entries:read"], { collections: ["posts", "fresh"] });
    await makeKey("schemaWide", ["collections:write", "entries:read"]);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await s?.close();
  });

  const as = (label: string) => keys[label]!.caller;
  const dataIds = (r: Result) => (r.body.data as { id: string }[]).map((e) => e.id).sort();

  it("listings and the create response carry the narrowing; an unnarrowed key has collections null, published_only false", async () => {
    expect(keys.site!.record).toMatchObject({ grants: ["entries:read"], collections: ["authors", "posts"], published_only: true });
    expect(keys.wide!.record).toMatchObject({ collections: null, published_only: false });
    const listed = (await owner.get("/api/dashboard/keys")).expectStatus(200).body.data as any[];
    expect(listed.find((k) => k.name === "posts")).toMatchObject({ collections: ["posts"], published_only: false });
    expect(listed.find((k) => k.name === "site")).toMatchObject({ collections: ["authors", "posts"], published_only: true });
  });

  it("bad narrowings are refused with a 400 naming the field; names of collections not created yet are fine", async () => {
    (await owner.post("/api/dashboard/keys", { name: "x", grants: ["entries:read"], collections: ["Posts"] }))
      .expectStatus(400)
      .expectBody({ field: "collections[0]" });
    (await owner.post("/api/dashboard/keys", { name: "x", grants: ["entries:read"], collections: [] })).expectStatus(400).expectBody({ field: "collections" });
    (await owner.post("/api/dashboard/keys", { name: "x", grants: ["entries:read"], collections: "posts" })).expectStatus(400).expectBody({ field: "collections" });
    (await owner.post("/api/dashboard/keys", { name: "x", grants: ["entries:read"], published_only: "yes" }))
      .expectStatus(400)
      .expectBody({ error: "published_only must be true or false", field: "published_only" });
    (await owner.post("/api/dashboard/keys", { name: "later", grants: ["entries:read"], collections: ["not_yet"] })).expectStatus(201).expectBody({ collections: ["not_yet"] });
  });

  describe("collections: a key limited to posts", () => {
    it("dashboard API: lists and reads only posts; secrets is 404 exactly like a collection that does not exist", async () => {
      expect(((await as("posts").get("/api/dashboard/collections")).expectStatus(200).body.data as any[]).map((c) => c.name)).toEqual(["posts"]);
      expect(((await as("wide").get("/api/dashboard/collections")).body.data as any[]).length).toBe(5);
      (await as("posts").get("/api/dashboard/collections/posts")).expectStatus(200);
      const unknown = (await as("posts").get("/api/dashboard/collections/nope")).expectStatus(404).body;
      for (const path of [
        "/api/dashboard/collections/secrets",
        "/api/dashboard/collections/secrets/entries",
        `/api/dashboard/collections/secrets/entries/${ids.secretLive}`,
      ]) {
        const r = (await as("posts").get(path)).expectStatus(404);
        expect(r.body).toEqual({ ...unknown, error: "Unknown collection: secrets" });
        (await as("wide").get(path)).expectStatus(200);
      }
      expect(dataIds((await as("posts").get("/api/dashboard/collections/posts/entries")).expectStatus(200))).toEqual(
        [ids.postLive, ids.postDraft, ids.postByDraft].sort(),
      );
    });

    it("delivery API: a private or gated collection outside its scope is refused like a missing entries:read; a public one ignores the key (spec 5.2.3)", async () => {
      (await as("posts").get("/api/v1/posts")).expectStatus(200);
      for (const path of ["/api/v1/secrets", `/api/v1/secrets/${ids.secretLive}`, "/api/v1/members_only", `/api/v1/members_only/${ids.gatedLive}`]) {
        const r = (await as("posts").get(path)).expectStatus(403);
        expect(r.body).toMatchObject({ grant: "entries:read", collection: path.split("/")[3] });
        expect(r.body.error).toMatch(/^Missing grant: entries:read/);
        (await as("wide").get(path)).expectStatus(200);
      }
      // Twice: the second read is answered from the response cache, and is checked all the same.
      for (let i = 0; i < 2; i++) (await as("posts").get("/api/v1/secrets")).expectStatus(403);
      expect(dataIds((await as("posts").get("/api/v1/pages")).expectStatus(200))).toEqual([ids.pageLive]);
    });

    it("expand into a collection outside the scope is refused, on the dashboard API and the delivery API", async () => {
      for (const path of [`/api/dashboard/collections/posts/entries/${ids.postLive}?expand=author`, "/api/dashboard/collections/posts/entries?expand=author", "/api/v1/posts?expand=author"]) {
        (await as("posts").get(path)).expectStatus(403).expectBody({ grant: "entries:read", collection: "authors", parameter: "expand" });
        (await as("wide").get(path)).expectStatus(200);
      }
      (await as("posts").get("/api/v1/posts?expand=related")).expectStatus(200);
    });

    it("SDK and OpenAPI show only its collections (public ones stay in the anonymous OpenAPI document)", async () => {
      const schema = await makeKey("schemaReader", ["collections:read"], { collections: ["posts"] });
      const reader = s.as(schema.value, { host: MCP_HOST });
      const sdk = (await reader.get("/api/dashboard/sdk")).expectStatus(200).text;
      expect(sdk).toContain('"posts"');
      expect(sdk).not.toContain("secrets");
      expect((await as("wide").get("/api/dashboard/sdk")).expectStatus(200).text).toContain("secrets");
      const doc = JSON.stringify((await reader.get("/api/openapi.json")).expectStatus(200).body.components.schemas);
      expect(doc).toContain("Entry_posts");
      expect(doc).toContain("Entry_pages");
      expect(doc).not.toContain("Entry_secrets");
      expect(JSON.stringify((await as("wide").get("/api/openapi.json")).body.components.schemas)).toContain("Entry_secrets");
    });

    it("MCP: list_collections, get_collection, list_items and get_item see only posts", async () => {
      const narrowed = await mcp("posts");
      const wide = await mcp("wide");
      expect((await callTool(narrowed, "list_collections")).json.data.map((c: any) => c.name)).toEqual(["posts"]);
      expect((await callTool(wide, "list_collections")).json.data).toHaveLength(5);
      for (const [tool, args] of [
        ["get_collection", { name: "secrets" }],
        ["list_items", { collection: "secrets" }],
        ["get_item", { collection: "secrets", id: ids.secretLive }],
      ] as const) {
        const r = await callTool(narrowed, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toBe("Unknown collection: secrets");
        expect((await callTool(wide, tool, args)).isError, tool).toBe(false);
      }
      expect((await callTool(narrowed, "list_items", { collection: "posts" })).json.meta.total).toBe(3);
      expect((await callTool(narrowed, "get_item", { collection: "posts", id: ids.postLive, expand: ["author"] })).structured).toMatchObject({
        grant: "entries:read",
        collection: "authors",
      });
    });
  });

  describe("published_only", () => {
    it("dashboard API: lists, reads and expands published entries only; status=draft lists nothing; the same key unnarrowed sees drafts", async () => {
      const list = (await as("published").get("/api/dashboard/collections/posts/entries")).expectStatus(200);
      expect(dataIds(list)).toEqual([ids.postLive, ids.postByDraft].sort());
      expect(list.body.meta.total).toBe(2);
      expect(dataIds(await as("wide").get("/api/dashboard/collections/posts/entries"))).toContain(ids.postDraft);
      (await as("published").get(`/api/dashboard/collections/posts/entries/${ids.postDraft}`)).expectStatus(404).expectBody({ error: "Entry not found" });
      (await as("wide").get(`/api/dashboard/collections/posts/entries/${ids.postDraft}`)).expectStatus(200);
      const drafts = (await as("published").get("/api/dashboard/collections/posts/entries?status=draft")).expectStatus(200);
      expect(drafts.body).toMatchObject({ data: [], meta: { total: 0, next: null } });
      expect(dataIds((await as("wide").get("/api/dashboard/collections/posts/entries?status=draft")).expectStatus(200))).toEqual([ids.postDraft]);
      expect(dataIds((await as("published").get("/api/dashboard/collections/posts/entries?status=published")).expectStatus(200))).toHaveLength(2);

      const one = (await as("published").get(`/api/dashboard/collections/posts/entries/${ids.postLive}?expand=author,related`)).expectStatus(200).body;
      expect(one.author).toMatchObject({ id: ids.authorLive });
      expect(one.related).toEqual([]);
      const guest = (await as("site").get(`/api/dashboard/collections/posts/entries/${ids.postByDraft}?expand=author`)).expectStatus(200).body;
      expect(guest.author).toBeNull();
      const wideOne = (await as("wide").get(`/api/dashboard/collections/posts/entries/${ids.postLive}?expand=related`)).body;
      expect(wideOne.related.map((e: any) => e.id)).toEqual([ids.postDraft]);
      const listed = (await as("site").get("/api/dashboard/collections/posts/entries?expand=author,related")).expectStatus(200).body.data as any[];
      expect(JSON.stringify(listed)).not.toContain("Unannounced");
      expect(JSON.stringify(listed)).not.toContain("Embargoed");
    });

    it("MCP list_items and get_item: no draft, by list, by id or by expand", async () => {
      const client = await mcp("site");
      expect((await callTool(client, "list_items", { collection: "posts" })).json.data.map((e: any) => e.id).sort()).toEqual([ids.postLive, ids.postByDraft].sort());
      expect((await callTool(client, "list_items", { collection: "posts", status: "draft" })).json).toMatchObject({ data: [], meta: { total: 0 } });
      const draft = await callTool(client, "get_item", { collection: "posts", id: ids.postDraft });
      expect(draft.isError).toBe(true);
      expect(draft.text).toBe("Entry not found");
      const expanded = await callTool(client, "get_item", { collection: "posts", id: ids.postLive, expand: ["related", "author"] });
      expect(expanded.json.related).toEqual([]);
      expect(expanded.json.author.id).toBe(ids.authorLive);
      expect((await callTool(await mcp("wide"), "get_item", { collection: "posts", id: ids.postDraft })).isError).toBe(false);
    });

    it("delivery API: the same as any key (never drafts)", async () => {
      (await as("site").get(`/api/v1/posts/${ids.postDraft}`)).expectStatus(404);
      expect(dataIds((await as("site").get("/api/v1/posts")).expectStatus(200))).toEqual(dataIds(await as("wide").get("/api/v1/posts")));
    });
  });

  describe("writes", () => {
    it("a published_only key cannot touch a draft (404 as if absent, nothing fires), a collection outside its scope is 404, a relation may name only what it reads", async () => {
      s.clearEvents();
      (await as("writer").patch(`/api/dashboard/collections/posts/entries/${ids.postDraft}`, { title: "x" })).expectStatus(404).expectBody({ error: "Entry not found" });
      (await as("writer").patch(`/api/dashboard/collections/posts/entries/${ids.postDraft}`, { _status: "published" })).expectStatus(404);
      (await as("writer").delete(`/api/dashboard/collections/posts/entries/${ids.postDraft}`)).expectStatus(404);
      (await as("writer").post("/api/dashboard/collections/secrets/entries", { title: "x" })).expectStatus(404).expectBody({ error: "Unknown collection: secrets" });
      (await as("writer").patch(`/api/dashboard/collections/secrets/entries/${ids.secretLive}`, { title: "x" })).expectStatus(404);
      (await as("writer").delete(`/api/dashboard/collections/secrets/entries/${ids.secretLive}`)).expectStatus(404);
      (await as("writer").post("/api/dashboard/collections/posts/entries", { title: "x", author: ids.authorDraft }))
        .expectStatus(400)
        .expectBody({ error: `author: no entry ${ids.authorDraft} in collection authors`, field: "author" });
      s.expectEvents([]);
      // The same key unnarrowed could do each of these (checked on the relation, which writes nothing else).
      (await as("writerWide").post("/api/dashboard/collections/posts/entries", { title: "ok", author: ids.authorDraft })).expectStatus(201);
      s.clearEvents();

      const created = (await as("writer").post("/api/dashboard/collections/posts/entries", { title: "Fresh", author: ids.authorLive, _status: "published" })).expectStatus(201).body;
      (await as("writer").patch(`/api/dashboard/collections/posts/entries/${created.id}`, { title: "Fresher" })).expectStatus(200).expectBody({ title: "Fresher" });
      (await as("writer").delete(`/api/dashboard/collections/posts/entries/${created.id}`)).expectStatus(200);
      s.expectEvents(["content.created", "content.published", "content.updated", "content.deleted"]);
    });

    it("MCP writes follow the same rules", async () => {
      const client = await mcp("writer");
      for (const [tool, args] of [
        ["publish_item", { collection: "posts", id: ids.postDraft }],
        ["update_item", { collection: "posts", id: ids.postDraft, fields: { title: "x" } }],
        ["delete_item", { collection: "posts", id: ids.postDraft }],
      ] as const) {
        const r = await callTool(client, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text, tool).toBe("Entry not found");
      }
      const outside = await callTool(client, "create_item", { collection: "secrets", fields: { title: "x" } });
      expect(outside.text).toBe("Unknown collection: secrets");
      (await owner.get(`/api/dashboard/collections/posts/entries/${ids.postDraft}`)).expectStatus(200).expectBody({ title: "Embargoed launch", _status: "draft" });
    });

    it("collections:write limited to some collections: creates only those, cannot change or delete others, and points relations only into its scope", async () => {
      const def = (name: string, extra: object[] = []) => ({ name, access: "private", fields: [{ name: "title", type: "string" }, ...extra] });
      const refused = (await as("schema").post("/api/dashboard/collections", def("elsewhere"))).expectStatus(403);
      expect(refused.body).toMatchObject({ grant: "collections:write", collection: "elsewhere" });
      (await as("schemaWide").post("/api/dashboard/collections", def("elsewhere"))).expectStatus(201);
      (await as("schema").post("/api/dashboard/collections", def("fresh", [{ name: "s", type: "relation", collection: "secrets" }])))
        .expectStatus(400)
        .expectBody({ field: "fields.1.collection" });
      (await as("schema").post("/api/dashboard/collections", def("fresh", [{ name: "p", type: "relation", collection: "posts" }]))).expectStatus(201);
      (await as("schema").put("/api/dashboard/collections/secrets", def("secrets"))).expectStatus(404).expectBody({ error: "Unknown collection: secrets" });
      (await as("schema").patch("/api/dashboard/collections/secrets", { add: { name: "n", type: "string" } })).expectStatus(404);
      (await as("schema").delete("/api/dashboard/collections/elsewhere")).expectStatus(404);
      // posts points at authors (out of its scope) already: its own edits keep working.
      const posts = (await owner.get("/api/dashboard/collections/posts")).body;
      (await as("schema").put("/api/dashboard/collections/posts", { access: posts.access, fields: posts.fields })).expectStatus(200);
      (await as("schema").delete("/api/dashboard/collections/fresh")).expectStatus(200);
    });

    it("refusals never name a collection outside the scope, nor count drafts or entries the key cannot see", async () => {
      const def = (name: string, extra: object[] = []) => ({ name, access: "private", fields: [{ name: "title", type: "string" }, ...extra] });
      (await owner.post("/api/dashboard/collections", def("labels"))).expectStatus(201);
      (await owner.post("/api/dashboard/collections", def("hidden_ref", [{ name: "label", type: "relation", collection: "labels" }]))).expectStatus(201);
      const labels = await makeKey("labels", ["collections:write", "entries:read"], { collections: ["labels"] });
      const refused = (await s.as(labels.value, { host: MCP_HOST }).delete("/api/dashboard/collections/labels")).expectStatus(409).body;
      expect(JSON.stringify(refused)).not.toContain("hidden_ref");
      expect(refused).toEqual({ error: "Collection labels is the target of a relation field of another collection", collection: "labels" });
      // The owner is told which one.
      (await owner.delete("/api/dashboard/collections/labels")).expectStatus(409).expectBody({ collection: "hidden_ref", field: "label" });

      (await owner.post("/api/dashboard/collections", def("drafts_only"))).expectStatus(201);
      (await owner.post("/api/dashboard/collections/drafts_only/entries", { title: "unseen" })).expectStatus(201);
      const publishedSchema = await makeKey("publishedSchema", ["collections:write", "entries:read"], { published_only: true });
      (await s.as(publishedSchema.value, { host: MCP_HOST }).delete("/api/dashboard/collections/drafts_only"))
        .expectStatus(409)
        .expectBody({ error: "Collection drafts_only still holds entries; delete them first", collection: "drafts_only" });
      (await owner.delete("/api/dashboard/collections/drafts_only")).expectStatus(409).expectBody({ entries: 1 });

      (await owner.post("/api/dashboard/collections", def("photos", [{ name: "photo", type: "media" }]))).expectStatus(201);
      const asset = (await owner.post("/api/dashboard/media?filename=a.txt", undefined, { body: "bytes", headers: { "content-type": "text/plain" } })).expectStatus(201).body;
      (await owner.post("/api/dashboard/collections/photos/entries", { title: "draft", photo: asset.id })).expectStatus(201);
      const media = await makeKey("media", ["media:write"], { collections: ["posts"] });
      const inUse = (await s.as(media.value, { host: MCP_HOST }).delete(`/api/dashboard/media/${asset.id}`)).expectStatus(409).body;
      expect(inUse).toEqual({ error: "a.txt is used by entries; send ?force=true to delete it anyway", used_by: null });
      const mediaWide = await makeKey("mediaWide", ["media:write"]);
      (await s.as(mediaWide.value, { host: MCP_HOST }).delete(`/api/dashboard/media/${asset.id}`)).expectStatus(409).expectBody({ used_by: 1 });
    });

    it("opening a collection or changing a rule that gates one outside the scope needs entries:read there", async () => {
      const rules = await makeKey("rules", ["rules:write", "entries:read"], { collections: ["posts"] });
      const rulesWide = await makeKey("rulesWide", ["rules:write", "entries:read"]);
      const rule = (await owner.get("/api/dashboard/rules")).body.data[0];
      (await s.as(rules.value, { host: MCP_HOST }).put(`/api/dashboard/rules/${rule.id}`, { name: rule.name, condition: { all: [{ signed_in: true }] } }))
        .expectStatus(403)
        .expectBody({ error: "Missing grant: entries:read" });
      (await s.as(rulesWide.value, { host: MCP_HOST }).put(`/api/dashboard/rules/${rule.id}`, { name: rule.name, condition: { all: [{ signed_in: true }] } })).expectStatus(200);
    });
  });

  it("narrowed ⊆ unnarrowed: every read a narrowed key gets, the same key without narrowing gets too, with at least the same entries", async () => {
    const paths = [
      "/api/dashboard/collections",
      ...["posts", "secrets", "authors", "members_only", "pages"].flatMap((c) => [
        `/api/dashboard/collections/${c}`,
        `/api/dashboard/collections/${c}/entries`,
        `/api/dashboard/collections/${c}/entries?status=draft`,
        `/api/v1/${c}`,
      ]),
      ...Object.entries(ids).flatMap(([label, id]) =>
        ["posts", "secrets", "authors"].flatMap((c) => [`/api/dashboard/collections/${c}/entries/${id}`, `/api/v1/${c}/${id}`].map((p) => `${p}#${label}`)),
      ),
      `/api/dashboard/collections/posts/entries/${ids.postLive}?expand=author,related`,
    ];
    for (const narrowed of ["posts", "published", "site"]) {
      for (const raw of paths) {
        const path = raw.split("#")[0]!;
        const n = await as(narrowed).get(path);
        const w = await as("wide").get(path);
        if (n.status >= 300) continue;
        expect(w.status, `${narrowed} ${path}`).toBe(n.status);
        if (Array.isArray(n.body?.data)) {
          const wideIds = new Set((w.body.data as any[]).map((e) => e.id ?? e.name));
          for (const e of n.body.data as any[]) expect(wideIds.has(e.id ?? e.name), `${narrowed} ${path}`).toBe(true);
        } else expect(w.body.id, `${narrowed} ${path}`).toBe(n.body.id);
      }
    }
  });
});
