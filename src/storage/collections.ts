/**
 * Collection definitions of a workspace (table collections). Fields are stored as JSON; the name
 * is unique per workspace. Every method takes an optional `db` so services can run it inside a
 * transaction.
 */
import type { CollectionAccess, CollectionDefinition, FieldDefinition } from "../core/collections.js";
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";
import { parseArrayColumn } from "./json-column.js";

/** A stored collection: its definition plus identity and timestamps. */
export interface StoredCollection extends CollectionDefinition {
  id: string;
  workspaceId: string;
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  workspace_id: string;
  name: string;
  fields: string;
  access: string;
  rule_id: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, workspace_id, name, fields, access, rule_id, created_at, updated_at";

function toCollection(row: Row): StoredCollection {
  const fields = parseArrayColumn<FieldDefinition>(row.fields);
  // Unknown access values read as private: absent permission is never open access.
  const access: CollectionAccess = row.access === "public" || row.access === "gated" ? row.access : "private";
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    fields,
    access,
    rule: row.rule_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The public JSON view of a collection (dashboard API, CLI, MCP). */
export function collectionView(c: StoredCollection) {
  return { id: c.id, name: c.name, fields: c.fields, access: c.access, rule: c.rule, created_at: c.created_at, updated_at: c.updated_at };
}

/**
 * The collection repository of a service context.
 *
 * @example
 * const posts = await ctx.db.collections.byName(workspaceId, "posts");
 */
export function createCollectionRepo(ctx: StorageContext) {
  return {
    async list(workspaceId: string, db: Sql = ctx.sql): Promise<StoredCollection[]> {
      const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM collections WHERE workspace_id = ? ORDER BY name`, [workspaceId]);
      return rows.map(toCollection);
    },

    /**
     * One indexed lookup (UNIQUE (workspace_id, name)). `lock` takes a row lock on PostgreSQL
     * (share for entry writes, update for definition changes), so a definition change and an
     * entry write never validate against each other's stale state; SQLite serializes writes.
     */
    async byName(workspaceId: string, name: string, db: Sql = ctx.sql, lock?: "share" | "update"): Promise<StoredCollection | undefined> {
      const suffix = lock && db.dialect === "postgresql" ? (lock === "share" ? " FOR SHARE" : " FOR UPDATE") : "";
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM collections WHERE workspace_id = ? AND name = ?${suffix}`, [workspaceId, name]);
      return row && toCollection(row);
    },

    /** By id, in any workspace; `share` takes a row lock on PostgreSQL, as byName's does. */
    async byId(id: string, db: Sql = ctx.sql, lock?: "share"): Promise<StoredCollection | undefined> {
      const suffix = lock && db.dialect === "postgresql" ? " FOR SHARE" : "";
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM collections WHERE id = ?${suffix}`, [id]);
      return row && toCollection(row);
    },

    /** The ids of every collection of every workspace. */
    async allIds(db: Sql = ctx.sql): Promise<string[]> {
      return (await db.all<{ id: string }>("SELECT id FROM collections ORDER BY id")).map((r) => r.id);
    },

    async insert(c: StoredCollection, db: Sql = ctx.sql): Promise<void> {
      await db.run(
        "INSERT INTO collections (id, workspace_id, name, fields, access, rule_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [c.id, c.workspaceId, c.name, JSON.stringify(c.fields), c.access, c.rule, c.created_at, c.updated_at],
      );
    },

    async update(c: StoredCollection, db: Sql = ctx.sql): Promise<void> {
      await db.run("UPDATE collections SET fields = ?, access = ?, rule_id = ?, updated_at = ? WHERE id = ?", [
        JSON.stringify(c.fields),
        c.access,
        c.rule,
        c.updated_at,
        c.id,
      ]);
    },

    async remove(id: string, db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM collections WHERE id = ?", [id]);
    },

    /** Whether `ruleId` names a rule of the workspace (a gated collection's rule). */
    async ruleExists(workspaceId: string, ruleId: string, db: Sql = ctx.sql): Promise<boolean> {
      return (await db.get("SELECT id FROM rules WHERE workspace_id = ? AND id = ?", [workspaceId, ruleId])) !== undefined;
    },
  };
}
