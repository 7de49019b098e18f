/**
 * Scenario 2's second reference, the naive handler: what a developer writes in an afternoon with
 * h3 and better-sqlite3, on the main server's own SQLite file (after it was seeded). Per request:
 * SHA-256 of the bearer token and one lookup of the key by hash, then one statement prepared once
 * for the page (20 newest published entries of `posts`) and one for the total (the trigger-kept
 * `entry_counts`), each row's `data` parsed and mapped to the delivery shape (id, the user fields
 * in definition order, the system fields); h3 serializes `{data, meta}`. No tenant, access rules,
 * query language, cache or validation: the floor a general service is compared with.
 *
 * config: {database, host, collection}
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { createServer } from "node:http";
import { H3, HTTPError } from "h3";
import { toNodeHandler } from "h3/node";

const Database = createRequire(import.meta.url)("better-sqlite3");

/** The naive handler's h3 app and its database handle. */
export function createNaiveApp({ database, host, collection }) {
  const db = new Database(database, { fileMustExist: true });
  db.pragma("journal_mode = WAL");
  const c = db
    .prepare("SELECT c.id, c.fields, c.workspace_id FROM collections c JOIN workspace_hosts h ON h.workspace_id = c.workspace_id WHERE h.host = ? AND c.name = ?")
    .get(host, collection);
  if (!c) throw new Error(`naive handler: no collection ${collection} on ${host}`);
  const fields = JSON.parse(c.fields).map((f) => f.name);
  const keyByHash = db.prepare("SELECT grants FROM api_keys WHERE key_hash = ? AND workspace_id = ?");
  const page = db.prepare(
    "SELECT id, data, status, published_at, created_by, created_at, updated_at FROM entries WHERE collection_id = ? AND status = 'published' ORDER BY created_at DESC, id DESC LIMIT 21",
  );
  const total = db.prepare("SELECT n FROM entry_counts WHERE collection_id = ? AND status = 'published'");

  const app = new H3();
  app.get(`/api/v1/${collection}`, (event) => {
    const token = (event.req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const key = keyByHash.get(createHash("sha256").update(token).digest("hex"), c.workspace_id);
    if (!key || !JSON.parse(key.grants).includes("entries:read")) throw new HTTPError({ status: 401 });
    const rows = page.all(c.id);
    const data = rows.slice(0, 20).map((row) => {
      const values = JSON.parse(row.data);
      const out = { id: row.id };
      for (const f of fields) out[f] = values[f] ?? null;
      out._status = row.status;
      out._published_at = row.published_at;
      out._created_by = row.created_by;
      out._created_at = row.created_at;
      out._updated_at = row.updated_at;
      return out;
    });
    const last = data.at(-1);
    const next = rows.length > 20 ? Buffer.from(JSON.stringify([last._created_at, last.id])).toString("base64url") : null;
    return { data, meta: { total: total.get(c.id)?.n ?? 0, limit: 20, offset: 0, next } };
  });
  return { app, db };
}

export async function start(config) {
  const { app, db } = createNaiveApp(config);
  const server = createServer(toNodeHandler(app));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    info: { port: server.address().port },
    close: async () => {
      await new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)));
      db.close();
    },
  };
}
