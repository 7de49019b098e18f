/**
 * The cached OpenAPI document across two instances on one PostgreSQL schema (+ Redis): a
 * collection created on one instance is in the other's document at once for a credential (its
 * tenant, content version included, is read afresh) and within the version push's bound for an
 * anonymous reader (test/scale/version-push.test.ts), never later; the ETag the first instance
 * gave is not answered 304 by the other after the change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService } from "../../src/service.js";
import { createTestDatabase, PG_URL, REDIS_URL, type TestDatabase } from "../helpers/database.js";
import { scenario, type Scenario } from "../helpers/scenario.js";
import { serveService, silentLogger, type ServedService } from "../helpers/server.js";
import { dashboardToken } from "../helpers/sessions.js";

const BOUND_MS = 2000;


describe.runIf(PG_URL)("OpenAPI document across instances on PostgreSQL", () => {
  let db: TestDatabase;
  let a: ServedService;
  let b: ServedService;
  /** Requests to each instance. */
  let onA: Scenario;
  let onB: Scenario;
  let owner: string;
  beforeAll(async () => {
    db = await createTestDatabase("postgresql");
    const common = { dataDir: db.dataDir, database: db.url, blobs: "memory:", secretKey: Buffer.alloc(32, 7).toString("base64"), logger: silentLogger(), ...(REDIS_URL ? { redis: REDIS_URL } : {}) };
    a = await serveService(await createService(common));
    b = await serveService(await createService(common));
    [onA, onB] = await Promise.all([scenario(a), scenario(b)]);
    const wsId = (await a.svc.context.workspaces.create({ slug: "demo", hosts: ["demo.localhost"] })).id;
    owner = await dashboardToken(a.svc.context, wsId, "owner");
  });
  afterAll(async () => {
    await onA?.close();
    await onB?.close();
    await a?.close();
    await b?.close();
    await db?.cleanup();
  });

  const entrySchemas = async (x: Scenario, token?: string, etag?: string) => {
    const res = await x.as(token).get("/api/openapi.json", { headers: etag ? { "if-none-match": etag } : {} });
    const names = res.status === 200 ? Object.keys(res.body.components.schemas).filter((s: string) => s.startsWith("Entry_")) : [];
    return { status: res.status, etag: res.headers.get("etag")!, names };
  };

  it("a collection created on one instance is in the other's next document", async () => {
    for (let i = 0; i < 5; i++) {
      const name = `posts${i}`;
      const anonymous = await entrySchemas(onB);
      const session = await entrySchemas(onB, owner);
      await entrySchemas(onB); // served from the cache now
      (await onA.as(owner).post("/api/dashboard/collections", { name, access: "public", fields: [{ name: "title", type: "string" }] })).expectStatus(201);
      const fresh = await entrySchemas(onB, owner, session.etag);
      expect(fresh.status).toBe(200);
      expect(fresh.names).toContain(`Entry_${name}`);
      const end = Date.now() + BOUND_MS;
      let seen = await entrySchemas(onB, undefined, anonymous.etag);
      while (!seen.names.includes(`Entry_${name}`) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 5));
        seen = await entrySchemas(onB, undefined, anonymous.etag);
      }
      expect(seen.names).toContain(`Entry_${name}`);
    }
  });
});
