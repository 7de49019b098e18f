/**
 * Collection use cases, shared by HTTP, MCP and the CLI: create, change (PUT a whole definition or
 * PATCH one field; checked against stored entries, 409 when stored data would violate the new
 * definition or a removal would drop values unconfirmed) and delete definitions.
 */
import { randomUUID } from "node:crypto";
import { badRequest, conflict, notFound } from "../core/errors.js";
import {
  applyFieldChange,
  isCollectionName,
  parseCollectionDefinition,
  parseFieldChange,
  planSchemaChange,
  type CollectionDefinition,
  type FieldDefinition,
  type SchemaChangePlan,
} from "../core/collections.js";
import { storedValueFits } from "../core/entry-schema.js";
import { isUniqueViolation } from "../storage/driver-errors.js";
import type { StoredCollection } from "../storage/collections.js";
import type { Sql } from "../storage/sql.js";
import { opensCollection } from "../core/openings.js";
import { fieldsFingerprint } from "../storage/entry-deliveries.js";
import type { ServiceContext } from "./context.js";
import { assertMayOpen, type Actor } from "./gates.js";
import { inCollectionScope, inScope, outsideScope, readsDrafts } from "../core/key-scope.js";

/** A collection in its API form and as stored, for callers outside services. */
export { collectionView } from "../storage/collections.js";
export type { StoredCollection };

const SCAN_PAGE = 500;

/**
 * Every collection of a workspace, by name; for a key limited to some collections
 * (core/key-scope.ts), only those: the others are not shown at all.
 */
export async function listCollections(ctx: ServiceContext, workspaceId: string, actor?: Actor): Promise<StoredCollection[]> {
  return inScope(actor, await ctx.db.collections.list(workspaceId));
}

/**
 * One collection as `actor` may see it: 404 `Unknown collection` when it does not exist or when
 * `actor` is a key whose collection grants do not reach it (exactly as if it did not exist, so a
 * narrowed key learns no name its listings hide). Decided before any read.
 *
 * @example
 * const posts = await collectionFor(ctx, ws.id, "posts", principal);
 */
export function collectionFor(ctx: ServiceContext, workspaceId: string, name: string, actor: Actor | undefined): Promise<StoredCollection> {
  assertVisible(actor, name);
  return getCollection(ctx, workspaceId, name);
}

/** 404 unknownCollection unless `name` is in the actor's collection scope (core/key-scope.ts). */
export function assertVisible(actor: Actor | undefined, name: string): void {
  if (!inCollectionScope(actor, name)) throw unknownCollection(name);
}

/** One collection, or 404 `Unknown collection: <name>`. */
export async function getCollection(ctx: ServiceContext, workspaceId: string, name: string, db?: Sql, lock?: "share" | "update"): Promise<StoredCollection> {
  const found = isCollectionName(name) ? await ctx.db.collections.byName(workspaceId, name, db, lock) : undefined;
  if (!found) throw unknownCollection(name);
  return found;
}

/** 404 naming the collection (quoted, shortened: it comes from the request path). */
export function unknownCollection(name: string) {
  return notFound(`Unknown collection: ${name.length > 64 ? `${name.slice(0, 64)}…` : name}`);
}

/**
 * Creates a collection from a definition body; 400 for an invalid definition, an unknown relation
 * target or rule; 403 when it is public or gated and `actor` lacks entries:read; 409 when the
 * name is taken.
 */
export async function createCollection(ctx: ServiceContext, workspaceId: string, body: unknown, actor: Actor): Promise<StoredCollection> {
  const def = parseCollectionDefinition(body);
  // The caller names it: refusing says nothing it did not know (403, as a missing grant).
  if (!inCollectionScope(actor, def.name)) throw outsideScope("collections:write", def.name);
  if (opensCollection(undefined, def)) assertMayOpen(actor, [def.name]);
  const collections = ctx.db.collections;
  const at = new Date(ctx.now()).toISOString();
  const stored: StoredCollection = { ...def, id: randomUUID(), workspaceId, created_at: at, updated_at: at };
  try {
    await ctx.sql.transaction(async (tx) => {
      await checkReferences(ctx, workspaceId, def, tx, actor);
      await collections.insert(stored, tx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Collection ${def.name} already exists`, { collection: def.name, field: "name" });
    throw error;
  }
  return stored;
}

/** `confirmDrop`: a change that removes fields holding values may drop them (else 409). */
export interface SchemaChangeOptions {
  confirmDrop?: boolean;
}

/**
 * Replaces a collection's definition (PUT). Removing a field that holds values is refused (409,
 * `values`: how many) unless `confirmDrop`, which drops them; a field that becomes required or
 * changes type is checked against every stored entry first. Opening it to more readers needs
 * entries:read of `actor` (403).
 */
export async function updateCollection(ctx: ServiceContext, workspaceId: string, name: string, body: unknown, actor: Actor, options: SchemaChangeOptions = {}): Promise<StoredCollection> {
  const input = body && typeof body === "object" && !Array.isArray(body) ? { name, ...(body as Record<string, unknown>) } : body;
  const def = parseCollectionDefinition(input);
  if (def.name !== name) throw badRequest("name: renaming a collection is not supported", { field: "name" });
  return (await changeDefinition(ctx, workspaceId, name, actor, options, () => ({ definition: def }))).collection;
}

/** A field change's outcome: the new definition and how many stored values it moved or dropped. */
export interface FieldChangeResult {
  collection: StoredCollection;
  values: number;
}

/**
 * Adds, renames or removes one field (PATCH; body see {@link parseFieldChange}). A rename moves
 * the stored values of every entry (drafts and published) in the same transaction; a removal of
 * a field holding values needs `confirmDrop` (else 409 with `values`). Adding follows PUT's rules
 * (a new required field while entries exist is 409). `values`: moved by a rename, dropped by a
 * removal, 0 for an addition.
 */
export async function changeCollectionField(ctx: ServiceContext, workspaceId: string, name: string, body: unknown, actor: Actor, options: SchemaChangeOptions = {}): Promise<FieldChangeResult> {
  const change = parseFieldChange(body);
  return changeDefinition(ctx, workspaceId, name, actor, options, (before) => applyFieldChange(before, change));
}

/**
 * The one schema-change path of PUT and PATCH, in one transaction: refuses silent drops, checks
 * stored entries, moves renamed values, drops removed ones, stores the definition. Entry and
 * collection writes bump the workspace's content version (storage triggers), so delivery caches
 * refresh; no event fires: the six events of spec 6.2 are about entries being saved, and a schema
 * change saves none.
 */
async function changeDefinition(
  ctx: ServiceContext,
  workspaceId: string,
  name: string,
  actor: Actor,
  options: SchemaChangeOptions,
  build: (before: StoredCollection) => { definition: CollectionDefinition; renamed?: { from: string; to: string } },
): Promise<FieldChangeResult> {
  const entries = ctx.db.entries;
  let refill = false;
  assertVisible(actor, name);
  const result = await ctx.sql.transaction(async (tx) => {
    const before = await getCollection(ctx, workspaceId, name, tx, "update");
    const { definition: def, renamed } = build(before);
    if (opensCollection(before, def)) assertMayOpen(actor, [def.name]);
    await checkReferences(ctx, workspaceId, def, tx, actor, before);
    // A rename is no removal: compare against the old definition under the new name.
    const base = renamed ? { ...before, fields: before.fields.map((f) => (f.name === renamed.from ? { ...f, name: renamed.to } : f)) } : before;
    const plan = planSchemaChange(base, def);
    const drops = await Promise.all(plan.removed.map(async (f) => ({ field: f, values: await entries.countValues(before.id, f.name, f.type === "relations", tx) })));
    const dropped = drops.reduce((n, d) => n + d.values, 0);
    if (dropped > 0 && !options.confirmDrop) throw dropRefused(name, drops.filter((d) => d.values > 0));
    if (plan.checked.length > 0) await checkStoredEntries(ctx, name, before, plan, tx);
    let values = dropped;
    if (renamed) {
      const field = before.fields.find((f) => f.name === renamed.from)!;
      values = await entries.countValues(before.id, renamed.from, field.type === "relations", tx);
      await entries.renameField(before.id, renamed.from, renamed.to, field.type === "relations", tx);
    }
    for (const f of plan.removed) await entries.dropField(before.id, f.name, f.type === "relations", tx);
    const after: StoredCollection = { ...before, ...def, updated_at: new Date(ctx.now()).toISOString() };
    await ctx.db.collections.update(after, tx);
    refill = fieldsFingerprint(after) !== fieldsFingerprint(before);
    return { collection: after, values };
  });
  // Stored delivery JSON follows the fields (names, types, order): the old bodies are unused from
  // the commit on (reads render), and new ones are filled in the background, not in this
  // transaction, which would hold the write lock for as long as rendering every entry takes.
  if (refill) ctx.deliveryBackfill.fill(result.collection.id);
  return result;
}

/** 409 for a removal that would drop stored values without confirmation; `values`: how many. */
function dropRefused(name: string, drops: { field: FieldDefinition; values: number }[]) {
  const values = drops.reduce((n, d) => n + d.values, 0);
  const names = drops.map((d) => d.field.name).join(", ");
  return conflict(
    `Removing ${drops.length === 1 ? "field" : "fields"} ${names} of collection ${name} drops ${values === 1 ? "1 stored value" : `${values} stored values`}; confirm the drop (confirm=drop) or clear ${values === 1 ? "it" : "them"} first`,
    { field: drops[0]!.field.name, values, confirm: "drop" },
  );
}

/** 409 when a field that becomes required or changes type does not fit every stored entry. */
async function checkStoredEntries(ctx: ServiceContext, name: string, before: StoredCollection, plan: SchemaChangePlan, tx: Sql): Promise<void> {
  const counts = plan.checked.map(() => ({ missing: 0, invalid: 0 }));
  for await (const page of ctx.db.entries.scan(before.id, SCAN_PAGE, tx)) {
    for (const row of page.rows) {
      plan.checked.forEach((c, i) => {
        const prev = c.previous;
        const value = prev?.type === "relations" ? page.relations.get(row.id)?.[c.field.name] : row.data[c.field.name];
        // Values stored in another place (data vs entry_relations) or pointing at another
        // collection never fit; other values must pass the new field's schema.
        const incompatible = prev !== undefined && ((prev.type === "relations") !== (c.field.type === "relations") || prev.collection !== c.field.collection);
        const fit = prev && incompatible ? storedValueFits(prev, value) : storedValueFits(c.field, value);
        if (!fit.present) counts[i]!.missing++;
        else if (incompatible || !fit.valid) counts[i]!.invalid++;
      });
    }
  }
  plan.checked.forEach((c, i) => {
    const { missing, invalid } = counts[i]!;
    if (c.typeChanged && invalid > 0) {
      throw conflict(
        `Cannot change field ${c.field.name} of collection ${name} to ${describeType(c.field)}: ${entriesText(invalid)} ${invalid === 1 ? "holds a value that does" : "hold values that do"} not fit; change or clear those values first`,
        { field: c.field.name, entries: invalid },
      );
    }
    if (c.field.required && missing > 0) {
      throw conflict(
        `Cannot make field ${c.field.name} of collection ${name} required: ${entriesText(missing)} ${missing === 1 ? "has" : "have"} no value for it; give them one first`,
        { field: c.field.name, entries: missing },
      );
    }
  });
}

/**
 * Deletes a collection. Refused (409) while it holds entries (each entry deletion fires
 * content.deleted, so entries are deleted one by one first) or while another collection's
 * relation field targets it.
 */
export async function deleteCollection(ctx: ServiceContext, workspaceId: string, name: string, actor?: Actor): Promise<StoredCollection> {
  assertVisible(actor, name);
  return ctx.sql.transaction(async (tx) => {
    const c = await getCollection(ctx, workspaceId, name, tx, "update");
    const n = await ctx.db.entries.count(c.id, tx);
    if (n > 0) {
      // A key that sees no drafts is not told how many there are: only that entries remain.
      if (!readsDrafts(actor)) throw conflict(`Collection ${name} still holds entries; delete them first`, { collection: name });
      throw conflict(`Collection ${name} still holds ${entriesText(n)}; delete them first`, { collection: name, entries: n });
    }
    const others = await ctx.db.collections.list(workspaceId, tx);
    for (const o of others) {
      const ref = o.id !== c.id && o.fields.find((f) => f.collection === name);
      if (!ref) continue;
      // A collection outside a narrowed key's scope is never named to it.
      if (!inCollectionScope(actor, o.name)) throw conflict(`Collection ${name} is the target of a relation field of another collection`, { collection: name });
      throw conflict(`Collection ${name} is the target of field ${ref.name} of collection ${o.name}`, { collection: o.name, field: ref.name });
    }
    await ctx.db.collections.remove(c.id, tx);
    return c;
  });
}

/**
 * Relation targets must exist (or be the collection itself); a gated rule must exist. A key
 * limited to some collections may point a field only at one of them (another reads as unknown),
 * unless the definition pointed there already (`before`): its own edits never break on a
 * relation an owner made.
 */
async function checkReferences(ctx: ServiceContext, workspaceId: string, def: CollectionDefinition, tx: Sql, actor?: Actor, before?: StoredCollection): Promise<void> {
  const collections = ctx.db.collections;
  for (const [i, f] of def.fields.entries()) {
    if (!f.collection || f.collection === def.name) continue;
    const kept = before?.fields.some((b) => b.collection === f.collection) ?? false;
    if ((!kept && !inCollectionScope(actor, f.collection)) || !(await collections.byName(workspaceId, f.collection, tx))) {
      throw badRequest(`fields.${i}.collection: unknown collection ${f.collection}`, { field: `fields.${i}.collection` });
    }
  }
  if (def.rule && !(await collections.ruleExists(workspaceId, def.rule, tx))) throw badRequest(`rule: unknown rule ${def.rule}`, { field: "rule" });
}

function describeType(f: { type: string; collection?: string }): string {
  return f.collection ? `${f.type} (${f.collection})` : f.type;
}

function entriesText(n: number): string {
  return n === 1 ? "1 stored entry" : `${n} stored entries`;
}
