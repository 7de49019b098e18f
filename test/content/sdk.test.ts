/**
 * GET /api/dashboard/sdk (spec 4.3): generated TypeScript compiles with zero diagnostics under
 * the TypeScript compiler, and its types catch misuse. Real HTTP, both drivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { scenario, type Caller, type ServerScenario } from "../helpers/scenario.js";
import { drivers } from "../helpers/database.js";
import { createTestKey, createTestSession } from "../helpers/credentials.js";
import { generateSdk } from "../../src/core/sdk.js";
import type { Grant } from "../../src/core/grants.js";

const libCache = new Map<string, ts.SourceFile | undefined>();

/** Diagnostics of one in-memory file compiled strictly against ES2022 + DOM (lib files parsed once). */
function compile(source: string): string[] {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => {
    if (name === "sdk.ts") return ts.createSourceFile(name, source, lang);
    if (!libCache.has(name)) libCache.set(name, read(name, lang, ...rest));
    return libCache.get(name);
  };
  const program = ts.createProgram(["sdk.ts"], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe.each(drivers)("SDK endpoint on %s", (driver) => {
  let s: ServerScenario;
  let owner: Caller;
  let workspaceId: string;
  const keyHolding = async (grants: Grant[]) => s.as((await createTestKey(s.svc.context, workspaceId, grants)).token);

  beforeAll(async () => {
    s = await scenario(driver);
    const ws = await s.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] });
    workspaceId = ws.id;
    owner = s.as((await createTestSession(s.svc.context, ws.id)).token);
    const col = async (json: unknown) => (await owner.post("/api/dashboard/collections", json)).expectStatus(201);
    await col({ name: "authors", access: "private", fields: [{ name: "name", type: "string", required: true }] });
    await col({
      name: "blog_posts",
      access: "public",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "body", type: "text" },
        { name: "views", type: "number" },
        { name: "featured", type: "boolean", required: true },
        { name: "when", type: "datetime" },
        { name: "meta", type: "json" },
        { name: "cover", type: "media" },
        { name: "author", type: "relation", collection: "authors" },
        { name: "related", type: "relations", collection: "blog_posts" },
      ],
    });
  });
  afterAll(() => s?.close());

  it("needs collections:read (entries grants imply it); 401 without a credential", async () => {
    const none = await keyHolding(["media:read"]);
    expect(await none.get("/api/dashboard/sdk")).toEqual({ status: 403, body: { error: "Missing grant: collections:read", grant: "collections:read" } });
    (await (await keyHolding(["entries:read"])).get("/api/dashboard/sdk")).expectStatus(200);
    (await s.get("/api/dashboard/sdk")).expectStatus(401);
  });

  it("serves TypeScript that compiles with zero diagnostics, to an owner session and a collections:read key", async () => {
    const sources: string[] = [];
    for (const caller of [owner, await keyHolding(["collections:read"])]) {
      const res = (await caller.get("/api/dashboard/sdk")).expectStatus(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/typescript/);
      sources.push(res.text);
    }
    const source = sources[0]!;
    expect(sources[1]).toBe(source);
    expect(source).toContain("export interface BlogPostsEntry extends EntrySystemFields");
    expect(source).toContain('"related": string[];');
    expect(source).toContain('"views": number | null;');
    expect(source).toContain("export function createClient(");
    expect(compile(source)).toEqual([]);
  });

  it("types the client: correct use compiles, misuse does not", async () => {
    const source = (await owner.get("/api/dashboard/sdk")).expectStatus(200).text;
    const good = `${source}
const client = createClient({ baseUrl: "https://demo.example", apiKey: "pk_x" });
export async function use(): Promise<string> {
  const page = await client.list("blog_posts", { limit: 5, sort: "-views", filter: { featured: true } });
  const first: BlogPostsEntry | undefined = page.data[0];
  const total: number = page.meta.total;
  const one = await client.get("authors", "id");
  const ids: string[] = first ? first.related : [];
  return one.name + String(total) + ids.join(",") + (first?.author ?? "");
}`;
    expect(compile(good)).toEqual([]);
    // The query language: operators, several sort keys, fields narrowing the type, expand turning ids into entries, cursors.
    const language = `${source}
const cms = createClient({ baseUrl: "https://demo.example" });
export async function query(): Promise<string> {
  const page = await cms.list("blog_posts", {
    filter: { views: { gte: 10, nin: [3, 4] }, title: { contains: "news" }, cover: { null: false }, related: "id1", _published_at: { gte: "2024-01-01" } },
    sort: ["-_published_at", "title"],
    fields: ["title"],
    expand: ["author", "related"],
  });
  const first = page.data[0]!;
  const title: string = first.title;
  const author: AuthorsEntry | null = first.author;
  const related: BlogPostsEntry[] = first.related;
  const next: string | null = page.meta.next;
  const more = next ? await cms.list("blog_posts", { after: next, sort: ["-_published_at", "title"] }) : undefined;
  const got = await cms.get("blog_posts", first.id, { fields: ["title"], expand: ["author", "related"] });
  const gotAuthor: AuthorsEntry | null = got.author;
  const gotRelated: BlogPostsEntry[] = got.related;
  const whole: BlogPostsEntry = await cms.get("blog_posts", first.id);
  for await (const post of cms.each("blog_posts", { filter: { featured: true } })) return post.title;
  return got.title + (gotAuthor?.name ?? "") + gotRelated.length + String(whole.views) + title + (author?.name ?? "") + related.length + (more?.data[0]?.views ?? 0) + first._created_at;
}`;
    expect(compile(language)).toEqual([]);
    // Each misuse is an error of its own; all in one program to compile once.
    const misuse = `${source}
createClient({ baseUrl: "x" }).list("nope");
createClient({ baseUrl: "x" }).list("blog_posts", { sort: "-nope" });
(async () => { const e = await createClient({ baseUrl: "x" }).get("authors", "1"); const n: number = e.name; return n; })();
createClient({ baseUrl: "x" }).list("blog_posts", { expand: ["title"] });
createClient({ baseUrl: "x" }).list("blog_posts", { fields: ["nope"] });
createClient({ baseUrl: "x" }).list("blog_posts", { filter: { views: { gte: "ten" } } });
createClient({ baseUrl: "x" }).list("blog_posts", { sort: ["title", "-nope"] });
(async () => { const p = await createClient({ baseUrl: "x" }).list("blog_posts", { fields: ["title"] }); return p.data[0]!.views; })();
(async () => { const p = await createClient({ baseUrl: "x" }).list("blog_posts", { expand: ["author"] }); const s: string | null = p.data[0]!.author; return s; })();
createClient({ baseUrl: "x" }).get("blog_posts", "1", { fields: ["nope"] });
createClient({ baseUrl: "x" }).get("blog_posts", "1", { expand: ["title"] });
(async () => { const e = await createClient({ baseUrl: "x" }).get("blog_posts", "1", { fields: ["title"] }); return e.views; })();
(async () => { const e = await createClient({ baseUrl: "x" }).get("blog_posts", "1", { expand: ["author"] }); const s: string | null = e.author; return s; })();
createClient({ baseUrl: "x" }).get("blog_posts", "1", { limit: 5 });`;
    expect(compile(misuse)).toHaveLength(14);
  });

  it("compiles for an empty workspace and for awkward names", () => {
    expect(compile(generateSdk([]))).toEqual([]);
    const awkward = generateSdk([
      { name: "a_b", access: "public", fields: [{ name: "Class", type: "string" }, { name: "delete", type: "json", required: true }] },
      { name: "a__b", access: "private", fields: [{ name: "constructor", type: "number" }] },
      { name: "entry_system_fields", access: "gated", fields: [] },
    ]);
    expect(awkward).toContain("ABEntry2");
    expect(compile(awkward)).toEqual([]);
  });
});
