/**
 * A comparable dump of every table of a service's database, so a test can prove a request
 * changed nothing. Volatile bookkeeping is left out: dashboard sessions (issued and ended by
 * sign-in), api_keys.last_used_at (written on use), the migrations ledger and entry_deliveries
 * (entries' delivery JSON, derived and stored by reads).
 */
import type { Sql } from "../../src/storage/sql.js";

const SKIP_TABLES = new Set(["dashboard_tokens", "schema_migrations", "migrations", "svc_migrations", "entry_deliveries"]);
const SKIP_COLUMNS: Record<string, string[]> = { api_keys: ["last_used_at"] };

/** Every table of the current database (schema), by name. */
export async function tableNames(sql: Sql): Promise<string[]> {
  const rows =
    sql.dialect === "sqlite"
      ? await sql.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await sql.all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()");
  return rows.map((r) => r.name).sort();
}

/** `{table: sorted JSON rows}` of every non-volatile table. */
export async function dumpDatabase(sql: Sql): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(sql)) {
    if (SKIP_TABLES.has(table) || !/^[a-z_0-9]+$/.test(table)) continue;
    const rows = await sql.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    out[table] = rows
      .map((row) => {
        for (const c of SKIP_COLUMNS[table] ?? []) delete row[c];
        return JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v));
      })
      .sort();
  }
  return out;
}

/** Row counts per table (a short summary for failure messages). */
export function counts(dump: Record<string, string[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(dump).map(([t, rows]) => [t, rows.length]));
}
