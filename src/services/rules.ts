/**
 * Rule use cases (DESIGN §4.2): create and change (validated on save, unique names), delete
 * (refused while a collection names the rule). A gated collection's check is in gates.ts.
 */
import { randomUUID } from "node:crypto";
import { conflict, notFound } from "../core/errors.js";
import { changesGate } from "../core/openings.js";
import { parseRule } from "../core/rules.js";
import { isUniqueViolation } from "../storage/driver-errors.js";
import type { StoredRule } from "../storage/rules.js";
import type { ServiceContext } from "./context.js";
import { assertMayOpen, type Actor } from "./gates.js";

export type { StoredRule };

/** Every rule of a workspace, by name. */
export function listRules(ctx: ServiceContext, workspaceId: string): Promise<StoredRule[]> {
  return ctx.db.rules.list(workspaceId);
}

/** One rule, or 404. */
export async function getRule(ctx: ServiceContext, workspaceId: string, id: string): Promise<StoredRule> {
  const rule = await ctx.db.rules.get(workspaceId, id);
  if (!rule) throw notFound("Unknown rule");
  return rule;
}

/** Creates a rule `{name, condition}`; 400 naming the bad path, 409 for a taken name. */
export async function createRule(ctx: ServiceContext, workspaceId: string, body: unknown): Promise<StoredRule> {
  const { name, condition } = parseRule(body);
  const at = new Date(ctx.now()).toISOString();
  const rule: StoredRule = { id: randomUUID(), name, condition, created_at: at, updated_at: at };
  await unique(name, () => ctx.db.rules.insert(workspaceId, rule));
  return rule;
}

/**
 * Replaces a rule's name and condition (PUT); collections gated by it follow at once, so a new
 * condition of a rule in use needs entries:read of `actor` (403), like opening a collection.
 */
export async function updateRule(ctx: ServiceContext, workspaceId: string, id: string, body: unknown, actor: Actor): Promise<StoredRule> {
  const { name, condition } = parseRule(body);
  const rules = ctx.db.rules;
  return ctx.sql.transaction(async (tx) => {
    const before = await rules.get(workspaceId, id, tx);
    if (!before) throw notFound("Unknown rule");
    const gated = await rules.usedBy(workspaceId, id, tx);
    if (changesGate(gated.length, before.condition, condition)) assertMayOpen(actor, gated);
    const after: StoredRule = { ...before, name, condition, updated_at: new Date(ctx.now()).toISOString() };
    await unique(name, () => rules.update(workspaceId, after, tx));
    return after;
  });
}

/** Deletes a rule; 409 naming the collections while any is gated by it. */
export async function deleteRule(ctx: ServiceContext, workspaceId: string, id: string): Promise<void> {
  const rules = ctx.db.rules;
  await ctx.sql.transaction(async (tx) => {
    const rule = await rules.get(workspaceId, id, tx);
    if (!rule) throw notFound("Unknown rule");
    const collections = await rules.usedBy(workspaceId, id, tx);
    if (collections.length > 0) {
      const list = collections.join(", ");
      throw conflict(`Rule ${rule.name} gates ${collections.length === 1 ? "collection" : "collections"} ${list}; point ${collections.length === 1 ? "it" : "them"} at another rule first`, {
        rule: rule.name,
        collections,
      });
    }
    await rules.remove(workspaceId, id, tx);
  });
}

async function unique(name: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A rule named ${name} already exists`, { rule: name, field: "name" });
    throw error;
  }
}
