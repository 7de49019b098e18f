/**
 * Applies pending migrations exactly once, also when several processes start at the same moment:
 * everything runs in one transaction that first takes a cluster-wide lock (PostgreSQL advisory
 * transaction lock; on SQLite, BEGIN IMMEDIATE is already an exclusive write lock across processes).
 */
import type { Sql } from "./sql.js";
import { migrations as defaultMigrations, type Migration } from "./migrations/index.js";

const LOCK_KEY = 7_316_452_911; // arbitrary, fixed: "contentsvc migrations"

export async function migrate(sql: Sql, migrations: Migration[] = defaultMigrations): Promise<number[]> {
  return sql.transaction(async (tx) => {
    if (tx.dialect === "postgresql") await tx.get("SELECT pg_advisory_xact_lock(?)", [LOCK_KEY]);
    await tx.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const rows = await tx.all<{ id: number }>("SELECT id FROM schema_migrations");
    const done = new Set(rows.map((r) => Number(r.id)));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql(tx.dialect));
      await tx.run("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)", [
        m.id,
        m.name,
        new Date().toISOString(),
      ]);
      applied.push(m.id);
    }
    return applied;
  });
}
