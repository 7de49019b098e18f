/**
 * Test databases: SQLite always; PostgreSQL when SVC_TEST_DATABASE_URL is set (CI sets it).
 * Each PostgreSQL test database is a fresh schema, dropped afterwards.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";

export type DriverName = "sqlite" | "postgresql";

export const PG_URL = process.env.SVC_TEST_DATABASE_URL;
export const REDIS_URL = process.env.SVC_TEST_REDIS_URL;

/** The drivers every storage-touching suite runs on. */
export const drivers: DriverName[] = PG_URL ? ["sqlite", "postgresql"] : ["sqlite"];

export interface TestDatabase {
  url: string;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function createTestDatabase(driver: DriverName): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-test-"));
  if (driver === "sqlite") {
    return { url: join(dataDir, "contentsvc.db"), dataDir, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(PG_URL!);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    dataDir,
    async cleanup() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
