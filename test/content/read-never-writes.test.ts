/**
 * A delivery read never writes (services/delivery.ts): uncached list and entry reads of a fresh
 * server with data — sorted, filtered, projected, expanded, public and with a key — change nothing
 * in the database. On SQLite the connection's total_changes() and the WAL file's bytes stay the
 * same; on both drivers no statement but a SELECT and no transaction go through the service's SQL
 * handle. The one write a read may cause, a key's last_used_at (spec 2.1, at most once a minute per
 * key), is made by the first keyed read and left out of the measured reads.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { drivers } from "../helpers/database.js";
import { apiKey, dashboardToken } from "../helpers/sessions.js";
import type { Sql } from "../../src/storage/sql.js";

describe.each(drivers)("a delivery read on %s", (driver) => {
  let t: TestServer;
  let key: string;
  let ids: string[] = [];
  /** Statements other than SELECT, and transactions, sent through the service's SQL handle. */
  const writes: string[] = [];
  let spelled = 0;

  /** `name=value` with the name percent-encoded anew each time, so the response cache never answers. */
  const spell = (name: string, value: string) => {
    const n = ++spelled;
    return `${[...name].map((c, i) => ((n >> i) & 1 ? `%${c.charCodeAt(0).toString(16)}` : c)).join("")}=${value}`;
  };
  const uncached = (path: string) => `${path}${path.includes("?") ? "&" : "?"}${spell("limit", "15")}`;
  const reads = () => [
    uncached("/api/v1/posts"),
    uncached("/api/v1/posts?sort=-views&filter[views][gte]=1"),
    uncached("/api/v1/posts?fields=title&expand=author"),
    uncached("/api/v1/people"),
    `/api/v1/posts/${ids[spelled % ids.length]}?${spell("fields", "title")}`,
    `/api/v1/posts/${ids[spelled % ids.length]}?${spell("expand", "author")}`,
  ];
  const sqliteState = async () => {
    const changes = (await t.svc.context.sql.get<{ n: number }>("SELECT total_changes() AS n"))!.n;
    const wal = `${t.db.url}-wal`;
    return { changes, wal: existsSync(wal) ? createHash("sha256").update(readFileSync(wal)).digest("hex") : "none" };
  };

  beforeAll(async () => {
    t = await startTestServer(driver);
    const wsId = (await t.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    const owner = await dashboardToken(t.svc.context, wsId, "owner");
    key = await apiKey(t.svc.context, wsId, ["entries:read"]);
    const post = (path: string, json: unknown) => t.request(path, { method: "POST", token: owner, json });
    await post("/api/dashboard/collections", { name: "people", access: "private", fields: [{ name: "name", type: "string" }] });
    const person = (await (await post("/api/dashboard/collections/people/entries", { name: "Ada", _status: "published" })).json()).id;
    const fields = [{ name: "title", type: "string" }, { name: "views", type: "number" }, { name: "author", type: "relation", collection: "people" }];
    expect((await post("/api/dashboard/collections", { name: "posts", access: "public", fields })).status).toBe(201);
    for (let i = 0; i < 30; i++) {
      const res = await post("/api/dashboard/collections/posts/entries", { title: `p${i}`, views: i % 4, author: person, _status: i % 5 ? "published" : "draft" });
      ids.push((await res.json()).id);
    }
    ids = ids.filter((_, i) => i % 5);
    // The background filler of stored delivery JSON writes on its own, never because of a read: done before measuring.
    await t.svc.context.deliveryBackfill.idle();

    const sql: Sql = t.svc.context.sql;
    const { all, get, run, exec, transaction } = sql;
    const note = (statement: string) => {
      if (!/^\s*select\b/i.test(statement)) writes.push(statement.trim().split(/\s+/).slice(0, 4).join(" "));
    };
    Object.assign(sql, {
      all: (s: string, p?: never) => (note(s), all.call(sql, s, p)),
      get: (s: string, p?: never) => (note(s), get.call(sql, s, p)),
      run: (s: string, p?: never) => (note(s), run.call(sql, s, p)),
      exec: (s: string) => (note(s), exec.call(sql, s)),
      transaction: (fn: never) => (writes.push("transaction"), transaction.call(sql, fn)),
    });
    // The one write a keyed read may cause, made here, before anything is measured.
    expect((await t.request(uncached("/api/v1/people"), { token: key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    writes.length = 0;
  });
  afterAll(() => t?.close());

  it("changes nothing and opens no transaction, read after read, uncached", async () => {
    const before = driver === "sqlite" ? await sqliteState() : undefined;
    for (let round = 0; round < 5; round++) {
      for (const path of reads()) {
        const res = await t.request(path, { token: key });
        expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
        await res.text();
      }
    }
    // Anything a read would have left for later (fire-and-forget) has had time to run.
    await new Promise((r) => setTimeout(r, 200));
    const after = driver === "sqlite" ? await sqliteState() : undefined;
    expect({ writes, database: after }).toEqual({ writes: [], database: before });
  });
});
