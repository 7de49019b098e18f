/**
 * The dashboard's Overview: every collection of a workspace with its published and draft counts,
 * and the entries changed last across them. Whoever may call it holds entries:read, which covers
 * entries in every collection (spec 2.2), so no collection is left out for one caller and shown to
 * another. Reads only: counts come from the counters the entry writes keep (migration 003).
 */
import type { EntryStatus } from "../core/events.js";
import { readsDrafts } from "../core/key-scope.js";
import type { Actor } from "../core/principal.js";
import type { StoredCollection } from "../storage/collections.js";
import type { EntryRow } from "../storage/entries.js";
import { listCollections } from "./collections.js";
import type { ServiceContext } from "./context.js";
import { listRead } from "./list-reads.js";

/** How many recent changes the Overview lists. */
export const RECENT_CHANGES = 10;
/** The longest label of a recent change, in characters: a label names an entry, it is not its content. */
export const LABEL_LENGTH = 120;

export interface OverviewCollection {
  name: string;
  published: number;
  draft: number;
}

export interface RecentChange {
  collection: string;
  id: string;
  /** The entry's first string field, shortened; null when it has none or it is empty. */
  label: string | null;
  _status: EntryStatus;
  _updated_at: string;
}

export interface Overview {
  collections: OverviewCollection[];
  recent: RecentChange[];
}

/**
 * The Overview of a workspace: collections by name with their counts, and the
 * {@link RECENT_CHANGES} entries updated last, newest first.
 *
 * @example
 * const { collections, recent } = await readOverview(ctx, workspace.id, principal);
 */
export async function readOverview(ctx: ServiceContext, workspaceId: string, actor?: Actor): Promise<Overview> {
  // A key narrowed to some collections sees only those; one limited to published entries sees
  // no draft, not even as a count (what the delivery API would show it).
  const collections = await listCollections(ctx, workspaceId, actor);
  const drafts = readsDrafts(actor);
  const { counts, rows } = await listRead(ctx, workspaceId, async (db) => ({
    counts: await ctx.db.entries.countsByStatus(workspaceId, db),
    rows: await ctx.db.entries.recentlyUpdated(collections.map((c) => c.id), RECENT_CHANGES, db, !drafts),
  }));
  const byId = new Map(collections.map((c) => [c.id, c]));
  const tally = new Map(collections.map((c) => [c.id, { name: c.name, published: 0, draft: 0 }]));
  for (const row of counts) {
    const t = tally.get(row.collection_id);
    if (t && (row.status === "published" || (row.status === "draft" && drafts))) t[row.status] += row.n;
  }
  return {
    collections: [...tally.values()],
    // A collection deleted meanwhile takes its entries with it: skip what no longer has one.
    recent: rows.flatMap((row) => {
      const c = byId.get(row.collection_id);
      return c ? [recentChange(c, row)] : [];
    }),
  };
}

function recentChange(c: StoredCollection, row: EntryRow): RecentChange {
  return { collection: c.name, id: row.id, label: labelOf(c, row), _status: row.status, _updated_at: row.updated_at };
}

/** The first string field's value, cut to LABEL_LENGTH characters (whole code points). */
function labelOf(c: StoredCollection, row: EntryRow): string | null {
  const field = c.fields.find((f) => f.type === "string");
  const value = field && Object.hasOwn(row.data, field.name) ? row.data[field.name] : undefined;
  if (typeof value !== "string" || value === "") return null;
  const chars = Array.from(value);
  return chars.length > LABEL_LENGTH ? `${chars.slice(0, LABEL_LENGTH).join("")}…` : value;
}
