/**
 * The in-process API key cache (services/key-cache.ts): a key used again is not looked up in the
 * database, yet a revocation or a grant change — made by this instance, by another instance on
 * the same database, or straight in the database — applies on the very next request everywhere,
 * because the credentials version is read with the tenant row.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp } from "../../src/http/app.js";
import { allRoutes } from "../../src/http/routes/index.js";
import { createService, type Service } from "../../src/service.js";
import { createKey, revokeKey } from "../../src/services/keys.js";
import { createCollection } from "../../src/services/collections.js";
import { createEntry } from "../../src/services/entries.js";
import { createRule } from "../../src/services/rules.js";
import { OPERATOR } from "../../src/core/principal.js";
import { drivers } from "../helpers/database.js";
import { requestAt, silentLogger, type RequestInit2 } from "../helpers/server.js";
import { grantPath, startAccessRig, testRoutes, type AccessRig } from "./helpers.js";

describe.each(drivers)("API key cache on %s", (driver) => {
  let rig: AccessRig;
  // A second instance: its own service (own caches) on the same database.
  let other: Service;
  let otherServer: Server;
  let otherBase: string;
  let keyLookups = 0;

  beforeAll(async () => {
    rig = await startAccessRig(driver);
    const sql = rig.t.svc.context.sql;
    const get = sql.get.bind(sql);
    (sql as { get: typeof sql.get }).get = (s, p) => {
      if (/FROM api_keys WHERE key_hash/.test(s)) keyLookups++;
      return get(s, p);
    };
    other = await createService({
      dataDir: rig.t.db.dataDir,
      database: rig.t.db.url,
      blobs: "memory:",
      secretKey: Buffer.alloc(32, 7).toString("base64"),
      logger: silentLogger(),
      insecureFastPasswordHashing: true,
    });
    otherServer = createServer(toNodeHandler(createHttpApp(other.context, [...allRoutes, ...testRoutes])));
    await new Promise<void>((r) => otherServer.listen(0, "127.0.0.1", r));
    otherBase = `http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    otherServer?.closeAllConnections();
    await new Promise<void>((r) => (otherServer ? otherServer.close(() => r()) : r()));
    await other?.close();
    await rig?.close();
  });

  const onA = (path: string, init?: RequestInit2) => rig.request(path, init);
  const onB = (path: string, init?: RequestInit2) => requestAt(otherBase, path, init);
  const status = async (res: Promise<Response>) => (await res).status;
  const newKey = (grants: Parameters<typeof createKey>[2]["grants"]) => createKey(rig.t.svc.context, rig.wsId, { name: `cache ${Math.random()}`, grants });
  /** Uses the key twice on each instance, so both hold it cached. */
  const warm = async (token: string) => {
    for (const req of [onA, onB, onA, onB]) expect(await status(req(grantPath("entries:read"), { token }))).toBe(200);
  };

  it("a key used again is not looked up again, and last_used_at writes do not invalidate it", async () => {
    const { value } = await newKey(["entries:read"]);
    keyLookups = 0;
    for (let i = 0; i < 20; i++) expect(await status(onA(grantPath("entries:read"), { token: value }))).toBe(200);
    expect(keyLookups).toBe(1);
    // The key's own last_used_at was written by then (fire-and-forget): the cached key survived it.
    await new Promise((r) => setTimeout(r, 50));
    expect(await status(onA(grantPath("entries:read"), { token: value }))).toBe(200);
    expect(keyLookups).toBe(1);
    // Still refused where the route needs a grant it does not hold, and in another workspace.
    expect(await status(onA(grantPath("entries:write"), { token: value }))).toBe(403);
    expect(await status(onA(grantPath("entries:read"), { token: value, host: "other.localhost" }))).toBe(401);
  });

  it("a key revoked on one instance is refused on the very next request on it and on the other", async () => {
    const first = await newKey(["entries:read"]);
    await warm(first.value);
    await revokeKey(rig.t.svc.context, rig.wsId, first.id);
    expect(await status(onA(grantPath("entries:read"), { token: first.value }))).toBe(401);
    expect(await status(onB(grantPath("entries:read"), { token: first.value }))).toBe(401);

    // And the other way round: revoked through the second instance.
    const second = await newKey(["entries:read"]);
    await warm(second.value);
    await revokeKey(other.context, rig.wsId, second.id);
    expect(await status(onA(grantPath("entries:read"), { token: second.value }))).toBe(401);
    expect(await status(onB(grantPath("entries:read"), { token: second.value }))).toBe(401);
  });

  it("a grant change in the database applies on the very next request on both instances", async () => {
    const { id, value } = await newKey(["entries:read"]);
    await warm(value);
    const setGrants = (grants: string[]) => rig.t.svc.context.sql.run("UPDATE api_keys SET grants = ? WHERE id = ?", [JSON.stringify(grants), id]);
    await setGrants(["media:read"]);
    for (const req of [onA, onB]) {
      expect(await status(req(grantPath("entries:read"), { token: value }))).toBe(403);
      expect(await status(req(grantPath("media:read"), { token: value }))).toBe(200);
    }
    await setGrants(["entries:read"]);
    for (const req of [onB, onA]) {
      expect(await status(req(grantPath("entries:read"), { token: value }))).toBe(200);
      expect(await status(req(grantPath("media:read"), { token: value }))).toBe(403);
    }
  });

  it("reads of private and gated collections: a cached key answers without a lookup, and a revocation or grant change applies on the next read", async () => {
    const ctx = rig.t.svc.context;
    const rule = await createRule(ctx, rig.wsId, { name: "members-only", condition: { signed_in: true } });
    for (const [name, access] of [["vault", "private"], ["club", "gated"]] as const) {
      await createCollection(ctx, rig.wsId, { name, access, ...(access === "gated" && { rule: rule.id }), fields: [{ name: "title", type: "string" }] }, OPERATOR);
      await createEntry(ctx, rig.wsId, name, { title: `${name} entry`, _status: "published" }, "00000000-0000-4000-8000-000000000001");
    }
    const { id, value } = await newKey(["entries:read"]);
    const read = async (req: typeof onA, path: string, token = value) => {
      const res = await req(path, { token });
      return { status: res.status, body: res.status === 200 ? ((await res.json()) as { data: { title: string }[] }) : undefined };
    };
    for (const path of ["/api/v1/vault", "/api/v1/club"]) {
      await read(onA, path);
      keyLookups = 0;
      // Cached responses and cached key: nothing is looked up, and the right body comes back.
      for (let i = 0; i < 5; i++) expect(await read(onA, path)).toMatchObject({ status: 200, body: { data: [{ title: expect.stringContaining("entry") }] } });
      expect(keyLookups).toBe(0);
      // A wrong key is refused, cache or not; a key of another kind is refused without a lookup.
      expect((await read(onA, path, `pk_${"0".repeat(64)}`)).status).toBe(401);
      expect((await read(onA, path, `ds_${"0".repeat(64)}`)).status).toBe(401);
    }
    // A public collection reads no credential at all: a bad key or another kind of token is ignored (5.2.3).
    await createCollection(ctx, rig.wsId, { name: "open", access: "public", fields: [{ name: "title", type: "string" }] }, OPERATOR);
    for (const token of [value, `pk_${"0".repeat(64)}`, `ds_${"0".repeat(64)}`]) expect((await read(onA, "/api/v1/open", token)).status).toBe(200);
    await rig.t.svc.context.sql.run("UPDATE api_keys SET grants = ? WHERE id = ?", [JSON.stringify(["media:read"]), id]);
    for (const req of [onA, onB]) for (const path of ["/api/v1/vault", "/api/v1/club"]) expect((await read(req, path)).status).toBe(403);
    await rig.t.svc.context.sql.run("UPDATE api_keys SET grants = ? WHERE id = ?", [JSON.stringify(["entries:read"]), id]);
    for (const req of [onA, onB]) for (const path of ["/api/v1/vault", "/api/v1/club"]) expect((await read(req, path)).status).toBe(200);
    await revokeKey(other.context, rig.wsId, id);
    for (const req of [onA, onB]) for (const path of ["/api/v1/vault", "/api/v1/club"]) expect((await read(req, path)).status).toBe(401);
  });

  it("a key deleted from the database, or moved to another workspace, is refused at once", async () => {
    const moved = await newKey(["entries:read"]);
    await warm(moved.value);
    await rig.t.svc.context.sql.run("UPDATE api_keys SET workspace_id = ? WHERE id = ?", [rig.otherId, moved.id]);
    for (const req of [onA, onB]) {
      expect(await status(req(grantPath("entries:read"), { token: moved.value }))).toBe(401);
      expect(await status(req(grantPath("entries:read"), { token: moved.value, host: "other.localhost" }))).toBe(200);
    }
    const deleted = await newKey(["entries:read"]);
    await warm(deleted.value);
    await rig.t.svc.context.sql.run("DELETE FROM api_keys WHERE id = ?", [deleted.id]);
    for (const req of [onA, onB]) expect(await status(req(grantPath("entries:read"), { token: deleted.value }))).toBe(401);
  });
});
