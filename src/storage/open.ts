/**
 * Picks the SQL driver from a URL: postgres:// → PostgreSQL pool, anything else → a SQLite file.
 */
import type { Sql } from "./sql.js";

export async function openDatabase(url: string): Promise<Sql> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres(url);
  }
  const { openSqlite } = await import("./sqlite.js");
  return openSqlite(url.startsWith("file:") ? url.slice("file:".length) : url);
}
