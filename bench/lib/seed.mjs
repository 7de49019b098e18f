/**
 * Fast seeding for the bench, run inside a server child on the service's own `Sql`: multi-row
 * INSERTs of 500 rows, one transaction per batch (PostgreSQL: migration 002's per-row trigger
 * bumps one content_versions row per entry, and 200,000 versions of one row in a single
 * transaction take minutes), rows shaped exactly as the service stores them
 * (collections.fields = JSON array of {name, type}; entries.data = JSON object of user fields).
 * Credentials are inserted the way test/helpers/sessions.ts does: only SHA-256 hashes stored.
 * Each published entry gets its stored delivery JSON in the same transaction, as the service's
 * own write path stores it (storage/entry-deliveries.ts: body, and the fields fingerprint).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { FIELDS, entryData } from "./shapes.mjs";

const BATCH = 500;
const ENTRY_COLUMNS = ["id", "workspace_id", "collection_id", "status", "data", "published_at", "created_by", "created_at", "updated_at"];
const hash = (token) => createHash("sha256").update(token, "utf8").digest("hex");
const token = (prefix) => prefix + randomBytes(32).toString("hex");
const iso = (ms) => new Date(ms).toISOString();
// storage/entry-deliveries.ts fieldsFingerprint: a body under another fingerprint is never used.
const FINGERPRINT = createHash("sha256").update(JSON.stringify(FIELDS.map((f) => [f.name, f.type]))).digest("base64url").slice(0, 22);
/** The delivery JSON of a published entry (services/entries.ts toEntry, serialized). */
const deliveryBody = (id, data, published_at, created_by, created_at, updated_at) =>
  JSON.stringify({ id, ...Object.fromEntries(FIELDS.map((f) => [f.name, data[f.name] ?? null])), _status: "published", _published_at: published_at, _created_by: created_by, _created_at: created_at, _updated_at: updated_at });

/**
 * Seeds one workspace. `seed`: {slug, hosts, collections: [{name, access, published, drafts}],
 * key?: grants[], owner?: true, account?: true}. Returns ids and the bearer tokens created.
 */
export async function seedWorkspace(ctx, seed) {
  const ws = await ctx.workspaces.create({ slug: seed.slug, hosts: seed.hosts, name: seed.slug, identity: true });
  const { sql } = ctx;
  const now = Date.now();
  const out = { workspaceId: ws.id, collections: {}, tokens: {} };
  const actor = randomUUID();
  const pendingEntries = [];
  await sql.transaction(async (tx) => {
    let ruleId = null;
    for (const c of seed.collections ?? []) {
      if (c.access === "gated" && !ruleId) {
        ruleId = randomUUID();
        await tx.run("INSERT INTO rules (id, workspace_id, name, condition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", [
          ruleId, ws.id, "signed-in", JSON.stringify({ signed_in: true }), iso(now), iso(now),
        ]);
      }
      const id = randomUUID();
      await tx.run("INSERT INTO collections (id, workspace_id, name, fields, access, rule_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
        id, ws.id, c.name, JSON.stringify(FIELDS), c.access, c.access === "gated" ? ruleId : null, iso(now), iso(now),
      ]);
      out.collections[c.name] = { id, entryIds: [] };
      pendingEntries.push({ c, id });
    }
    if (seed.key) {
      const value = token("pk_");
      await tx.run("INSERT INTO api_keys (id, workspace_id, name, key_hash, grants, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
        randomUUID(), ws.id, "bench", hash(value), JSON.stringify(seed.key), iso(now),
      ]);
      out.tokens.key = value;
    }
    if (seed.owner) {
      const userId = randomUUID();
      await tx.run(
        "INSERT INTO dashboard_users (id, workspace_id, email, password_hash, role, grants, created_at, updated_at) VALUES (?, ?, ?, ?, 'owner', '[]', ?, ?)",
        [userId, ws.id, `owner-${userId}@bench.localhost`, "scrypt$unused", iso(now), iso(now)],
      );
      const value = token("ds_");
      await tx.run(
        "INSERT INTO dashboard_tokens (token_hash, kind, workspace_id, user_id, role, grants, created_at, expires_at) VALUES (?, 'access', ?, ?, 'owner', '[]', ?, ?)",
        [hash(value), ws.id, userId, iso(now), iso(now + 6 * 3_600_000)],
      );
      out.tokens.owner = value;
    }
    if (seed.account) {
      const userId = randomUUID();
      await tx.run(
        "INSERT INTO end_users (id, workspace_id, email, password_hash, attributes, active, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', 1, ?, ?)",
        [userId, ws.id, `reader-${userId}@bench.localhost`, "scrypt$unused", iso(now), iso(now)],
      );
      const value = token("as_");
      await tx.run("INSERT INTO account_sessions (token_hash, workspace_id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)", [
        hash(value), ws.id, userId, iso(now), iso(now + 6 * 3_600_000),
      ]);
      out.tokens.account = value;
    }
  });
  for (const { c, id } of pendingEntries) {
    out.collections[c.name].entryIds = await insertEntries(sql, ws.id, id, c.published ?? 0, c.drafts ?? 0, actor, now, c.keepIds ?? 0);
  }
  // A bulk load leaves the planner's statistics behind until autovacuum catches up; a production
  // database that grew over time has them. Refresh them, as an import script would.
  if (sql.dialect === "postgresql") await sql.exec("ANALYZE");
  return out;
}

/** published + drafts entries, interleaved, newest first by created_at; returns the first `keep` ids. */
async function insertEntries(sql, workspaceId, collectionId, published, drafts, actor, now, keep) {
  const total = published + drafts;
  const kept = [];
  let p = 0;
  let d = 0;
  for (let start = 0; start < total; start += BATCH) {
    const n = Math.min(BATCH, total - start);
    const params = [];
    const bodies = [];
    for (let k = 0; k < n; k++) {
      const i = start + k;
      // Alternate while both remain, so drafts sit between published entries in every index.
      const isPublished = p < published && (d >= drafts || i % 2 === 0);
      isPublished ? p++ : d++;
      const id = randomUUID();
      if (kept.length < keep) kept.push(id);
      const at = iso(now - (i + 1) * 1000);
      const data = entryData(i);
      params.push(id, workspaceId, collectionId, isPublished ? "published" : "draft", JSON.stringify(data), isPublished ? at : null, actor, at, at);
      if (isPublished) bodies.push(id, FINGERPRINT, deliveryBody(id, data, at, actor, at, at));
    }
    const row = `(${ENTRY_COLUMNS.map(() => "?").join(", ")})`;
    const values = Array(bodies.length / 3).fill("(?, ?, ?)").join(", ");
    await sql.transaction(async (tx) => {
      await tx.run(`INSERT INTO entries (${ENTRY_COLUMNS.join(", ")}) VALUES ${Array(n).fill(row).join(", ")}`, params);
      if (bodies.length === 0) return;
      await tx.run(
        sql.dialect === "postgresql"
          ? `INSERT INTO entry_deliveries (entry_id, shape, body) VALUES ${values}`
          : `INSERT INTO entry_deliveries (entry_rowid, entry_id, shape, body) SELECT e.rowid, e.id, v.column2, v.column3 FROM (VALUES ${values}) AS v JOIN entries e ON e.id = v.column1`,
        bodies,
      );
    });
  }
  return kept;
}

/**
 * A SQLite trigger counting real last_used_at writes into a bench-only table (an UPDATE whose
 * WHERE matches no row fires nothing, so only actual writes count).
 */
export async function installTouchCounter(sql) {
  if (sql.dialect !== "sqlite") return false;
  await sql.exec(`
    CREATE TABLE IF NOT EXISTS bench_touches (key_id TEXT NOT NULL, at TEXT);
    CREATE TRIGGER IF NOT EXISTS bench_touch AFTER UPDATE OF last_used_at ON api_keys
    BEGIN INSERT INTO bench_touches (key_id, at) VALUES (NEW.id, NEW.last_used_at); END;
  `);
  return true;
}
