/**
 * Picks the SQL driver from a URL: postgres:// → PostgreSQL pool, anything else → a SQLite file.
 */
import type { Sql } from "./sql.js";

/**
 * Opens the database a URL names, for passing one connection to several services or for your own
 * queries beside the service's.
 *
 * @example
 * const sql = await openDatabase(process.env.DATABASE_URL ?? "./.svc/contentsvc.db");
 * const svc = await createService({ database: sql }); // the caller closes `sql`
 */
export async function openDatabase(url: string): Promise<Sql> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres(url);
  }
  const { openSqlite } = await import("./sqlite.js");
  return openSqlite(url.startsWith("file:") ? url.slice("file:".length) : url);
}
