/**
 * The delivery list read as JSON text (DESIGN §6): each published entry's delivery JSON is
 * rendered once and stored (storage/entry-deliveries.ts, migrations 013 and 015), so a page is the stored
 * bodies joined, byte for byte what serializing `listEntries` gives. A body is tied to the
 * collection's shape (its fields' names and types, in order): renaming, adding, removing or
 * reordering a field makes every stored body of the collection unused at once, with no mass
 * update; entries are rendered again as they are read. Pages that shape entries further (`fields`,
 * `expand`) and collections with many-to-many fields (whose ids live in other rows) take the
 * general path.
 */
import { createHash } from "node:crypto";
import { encodeCursor, parseEntryListQuery } from "../core/entry-query.js";
import type { StoredCollection } from "../storage/collections.js";
import { toEntry, type TotalsMemo } from "../storage/entries.js";
import type { RawEntryRow } from "../storage/entry-deliveries.js";
import { parseObjectColumn } from "../storage/json-column.js";
import { listRead } from "./list-reads.js";
import type { ServiceContext } from "./context.js";

/**
 * The JSON text of a delivery list page (`{data, meta: {total, limit, offset, next}}`), or
 * undefined when the query or the collection needs the general path (services/entries.ts
 * listEntries). Invalid queries fail exactly as there. `totals` holds totals known to be current.
 */
export async function deliveryListJson(
  ctx: ServiceContext,
  collection: StoredCollection,
  params: URLSearchParams,
  totals?: TotalsMemo,
): Promise<string | undefined> {
  const query = parseEntryListQuery(collection, params);
  if (query.fields || query.expand.length > 0 || collection.fields.some((f) => f.type === "relations")) return undefined;
  const deliveries = ctx.db.entryDeliveries;
  const shape = shapeOf(collection);
  const { rows, more, total } = await listRead(ctx, collection.workspaceId, (db) => deliveries.page(collection.id, query, shape, totals, db));
  const bodies: (string | null)[] = rows.map((r) => r.body);
  const missing = rows.filter((r) => r.body === null).map((r) => r.id);
  if (missing.length > 0) {
    const rendered = new Map<string, string>();
    const raw = await deliveries.rows(collection.id, missing);
    for (const row of raw) rendered.set(row.id, render(collection, row));
    rows.forEach((r, i) => (bodies[i] ??= rendered.get(r.id) ?? null));
    // Stored after the answer, in one transaction; a body not stored is simply rendered again.
    void ctx.sql.transaction(async (tx) => {
      for (const row of raw) await deliveries.store(row, shape, rendered.get(row.id)!, tx);
    }).catch(() => undefined);
  }
  // An entry deleted between the two reads is left out, as if the page had been read after.
  const data = bodies.filter((b): b is string => b !== null);
  const last = data[data.length - 1];
  const next = more && last ? encodeCursor(query.sort, JSON.parse(last) as Record<string, unknown>) : null;
  return `{"data":[${data.join(",")}],"meta":${JSON.stringify({ total, limit: query.limit, offset: query.offset, next })}}`;
}

/** The delivery JSON of one published entry: what serializing services/entries.ts's entry gives. */
function render(collection: StoredCollection, row: RawEntryRow): string {
  return JSON.stringify(toEntry(collection, { ...row, collection_id: collection.id, status: "published", data: parseObjectColumn(row.data) }, undefined));
}

// Definitions are cached per content version (the delivery cache), so most lookups hit here.
const shapes = new WeakMap<StoredCollection, string>();

/** A short fingerprint of what the delivery JSON depends on besides the entry: the fields, in order. */
export function shapeOf(collection: StoredCollection): string {
  let shape = shapes.get(collection);
  if (shape === undefined) {
    const fields = JSON.stringify(collection.fields.map((f) => [f.name, f.type]));
    shape = createHash("sha256").update(fields).digest("base64url").slice(0, 22);
    shapes.set(collection, shape);
  }
  return shape;
}
