/**
 * Rules of a workspace (table rules): a unique name and a condition stored as JSON, plus the
 * collections that name a rule (collections.rule_id) so a rule in use is never deleted.
 *
 * @example
 * const rule = await ctx.db.rules.get(workspaceId, ruleId);
 */
import { parseCondition, type Condition } from "../core/rules.js";
import type { StorageContext } from "./context.js";
import type { Sql } from "./sql.js";

/** A stored rule (its JSON view as well). */
export interface StoredRule {
  id: string;
  name: string;
  condition: Condition;
  created_at: string;
  updated_at: string;
}

interface Row {
  id: string;
  name: string;
  condition: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "id, name, condition, created_at, updated_at";

/** Repository factory; use through `ctx.db.rules`. */
export function createRuleRepo(ctx: StorageContext) {
  return {
    async list(workspaceId: string): Promise<StoredRule[]> {
      return (await ctx.sql.all<Row>(`SELECT ${COLUMNS} FROM rules WHERE workspace_id = ? ORDER BY name`, [workspaceId])).map(toRule);
    },

    async get(workspaceId: string, id: string, db: Sql = ctx.sql): Promise<StoredRule | undefined> {
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM rules WHERE workspace_id = ? AND id = ?`, [workspaceId, id]);
      return row && toRule(row);
    },

    async insert(workspaceId: string, r: StoredRule, db: Sql = ctx.sql): Promise<void> {
      await db.run("INSERT INTO rules (id, workspace_id, name, condition, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", [
        r.id,
        workspaceId,
        r.name,
        JSON.stringify(r.condition),
        r.created_at,
        r.updated_at,
      ]);
    },

    async update(workspaceId: string, r: StoredRule, db: Sql = ctx.sql): Promise<void> {
      await db.run("UPDATE rules SET name = ?, condition = ?, updated_at = ? WHERE workspace_id = ? AND id = ?", [
        r.name,
        JSON.stringify(r.condition),
        r.updated_at,
        workspaceId,
        r.id,
      ]);
    },

    async remove(workspaceId: string, id: string, db: Sql = ctx.sql): Promise<void> {
      await db.run("DELETE FROM rules WHERE workspace_id = ? AND id = ?", [workspaceId, id]);
    },

    /** Names of the collections gated by the rule, sorted. */
    async usedBy(workspaceId: string, id: string, db: Sql = ctx.sql): Promise<string[]> {
      const rows = await db.all<{ name: string }>("SELECT name FROM collections WHERE workspace_id = ? AND rule_id = ? ORDER BY name", [workspaceId, id]);
      return rows.map((r) => r.name);
    },
  };
}

/** A stored condition that no longer parses (hand-edited row) matches nobody: default deny. */
const NOBODY: Condition = { account: { field: "_", in: [] } };

function toRule(row: Row): StoredRule {
  let condition: Condition = NOBODY;
  try {
    condition = parseCondition(JSON.parse(row.condition));
  } catch {}
  return { id: row.id, name: row.name, condition, created_at: row.created_at, updated_at: row.updated_at };
}
