/**
 * Three `svc serve` processes started at the same moment on one EMPTY PostgreSQL schema: the
 * migrations run once (advisory lock), the demo workspace is created once, and every process serves.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrations } from "../../src/storage/migrations/index.js";
import { createTestDatabase, PG_URL, REDIS_URL, type TestDatabase } from "../helpers/database.js";
import { builtCli, startInstance, type Instance } from "./helpers.js";

describe.runIf(PG_URL && REDIS_URL && builtCli)("concurrent start on an empty PostgreSQL", () => {
  let db: TestDatabase;
  let instances: Instance[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await db?.cleanup();
  });

  it("migrates once, bootstraps the demo once, and all three serve", async () => {
    db = await createTestDatabase("postgresql");
    instances = await Promise.all([0, 1, 2].map(() => startInstance({ dataDir: db.dataDir, database: db.url, redis: REDIS_URL, blobs: "memory:" })));

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const applied = (await client.query("SELECT id FROM schema_migrations ORDER BY id")).rows.map((r) => Number(r.id));
      expect(applied).toEqual(migrations.map((m) => m.id).sort((x, y) => x - y));
      expect((await client.query("SELECT slug FROM workspaces")).rows).toEqual([{ slug: "demo" }]);
      expect(Number((await client.query("SELECT count(*) AS n FROM api_keys")).rows[0].n)).toBe(1);
    } finally {
      await client.end();
    }

    // Exactly one process printed the demo credentials; its key works on every process.
    await Promise.any(instances.map((i) => i.waitForOutput(/API key\s+pk_/)));
    await new Promise((r) => setTimeout(r, 200));
    const printed = instances.map((i) => /API key\s+(pk_[0-9a-f]+)/.exec(i.output())?.[1]).filter(Boolean);
    expect(printed).toHaveLength(1);
    for (const i of instances) {
      (await i.as(undefined, { host: "any" }).get("/readyz")).expectStatus(200);
      (await i.as(printed[0]).get("/api/dashboard/collections")).expectStatus(200);
    }
  });
});
