/**
 * The delivery read (spec 4.1, DESIGN §4.2, §6): published entries only, as JSON text, in one
 * order — content version → response cache → access → query (parsed once) → JSON. The HTTP
 * routes (http/routes/delivery.ts) only declare it.
 *
 * A read never writes: no statement of it changes the database and it opens no transaction, so
 * it never waits behind a write lock (SQLite) nor flushes the in-memory tenant copy
 * (PostgreSQL, storage/version-push.ts). The one exception is spec 2.1's `last_used_at` of a key,
 * recorded by the credential lookup at most once a minute per key.
 */
import { encodeCursor, parseEntryListQuery, parseEntryReadQuery, type EntryListQuery } from "../core/entry-query.js";
import type { Principal } from "../core/principal.js";
import type { StoredCollection } from "../storage/collections.js";
import type { TotalsMemo } from "../storage/entries.js";
import { fieldsFingerprint, keepsDeliveryJson, renderDelivery } from "../storage/entry-deliveries.js";
import type { ServiceContext } from "./context.js";
import { listEntries, readEntry, type ExpandCheck, type ReadOptions } from "./entries.js";
import { assertCanExpand, assertCanRead, readerKinds } from "./gates.js";
import { listRead } from "./list-reads.js";

/**
 * The request's credential as a principal, looking up only the kinds in `accept` (any other kind
 * is 401 without a lookup); undefined when the request carries none; 401 for a malformed,
 * unknown, expired or revoked one. Synchronous when the answer is known without I/O.
 */
export type CredentialLookup = (accept: readonly Principal["kind"][]) => Principal | undefined | Promise<Principal | undefined>;

export interface DeliveryRequest {
  collection: string;
  /** One entry when set (`{data: entry}`); a page of the list otherwise (`{data, meta}`). */
  id?: string;
  /** The raw query string, as the response cache's key: another spelling of one query is another response. */
  search: string;
  params: URLSearchParams;
  credential: CredentialLookup;
}

/**
 * The JSON text answering a delivery read of `workspace` (its `contentVersion` when the tenant
 * lookup read it). A public collection reads no credential at all, so a key sent to it is ignored
 * even when invalid (spec 5.2.3); the access check runs on every read, cached or not, and so does
 * the check of every collection an `expand` of the cached response read.
 *
 * @example
 * const json = await deliveryRead(ctx, workspace, { collection: "posts", search: "?limit=5", params: new URLSearchParams("limit=5"), credential: () => undefined });
 */
export async function deliveryRead(ctx: ServiceContext, workspace: { id: string; contentVersion?: number }, read: DeliveryRequest): Promise<string> {
  const cache = ctx.caches.delivery;
  // Before any data: see services/delivery-cache.ts for why the order matters.
  const version = await contentVersion(ctx, workspace);
  // JSON keeps the path's parts and the query apart whatever characters they hold.
  const key = JSON.stringify([workspace.id, read.collection, read.id ?? null, read.search]);
  const hit = cache.get(key, version);
  const collection = hit?.collection ?? (await cache.collection(workspace.id, read.collection, version));
  const readable = assertReadable(ctx, collection, read.credential);
  if (readable) await readable;
  // Looked up at most once, and only when an expansion into a non-public collection needs it.
  let who: ReturnType<CredentialLookup> | undefined;
  const principal = () => (who ??= read.credential(EXPANSION_READERS));
  const checkExpand: ExpandCheck = (target) => assertCanExpand(ctx, collection, target, principal);
  for (const target of hit?.expanded ?? []) await checkExpand(target);
  if (hit) return hit.body;

  const expanded: StoredCollection[] = [];
  const options: ReadOptions = {
    publishedOnly: true,
    async checkExpand(target) {
      await checkExpand(target);
      expanded.push(target);
    },
    totals: cache.totals(workspace.id, version),
  };
  let body: string;
  if (read.id !== undefined) {
    body = JSON.stringify({ data: await readEntry(ctx, collection, read.id, parseEntryReadQuery(collection, read.params), options) });
  } else {
    const query = parseEntryListQuery(collection, read.params);
    const plain = !query.fields && query.expand.length === 0 && keepsDeliveryJson(collection);
    body = plain ? await storedPage(ctx, collection, query, options.totals) : JSON.stringify(await listEntries(ctx, collection, query, options));
  }
  cache.set(key, version, { collection, expanded, body });
  return body;
}

/**
 * A list page without `fields` or `expand` as the stored delivery JSON of its entries joined
 * (storage/entry-deliveries.ts): byte for byte what serializing listEntries gives. An entry with
 * no body stored for the current fields is rendered from its row, and not stored: a read never
 * writes. It only tells the background filler, in memory, that the collection has bodies missing.
 */
async function storedPage(ctx: ServiceContext, collection: StoredCollection, query: EntryListQuery, totals?: TotalsMemo): Promise<string> {
  const deliveries = ctx.db.entryDeliveries;
  const { rows, more, total } = await listRead(ctx, collection.workspaceId, (db) => deliveries.page(collection.id, query, fieldsFingerprint(collection), totals, db));
  const bodies: (string | null)[] = rows.map((r) => r.body);
  const missing = rows.filter((r) => r.body === null).map((r) => r.id);
  if (missing.length > 0) {
    ctx.deliveryBackfill.missing(collection.id);
    const rendered = new Map((await deliveries.rows(collection.id, missing)).map((row) => [row.id, renderDelivery(collection, row)]));
    rows.forEach((r, i) => (bodies[i] ??= rendered.get(r.id) ?? null));
  }
  // An entry deleted between the two reads is left out, as if the page had been read after.
  const data = bodies.filter((b): b is string => b !== null);
  const last = data[data.length - 1];
  const next = more && last ? encodeCursor(query.sort, JSON.parse(last) as Record<string, unknown>) : null;
  return `{"data":[${data.join(",")}],"meta":${JSON.stringify({ total, limit: query.limit, offset: query.offset, next })}}`;
}

const EXPANSION_READERS: readonly Principal["kind"][] = Object.freeze(["key", "account"]);

/**
 * Public: nothing to check. Otherwise only the kinds of credential the collection accepts are
 * even looked up. Undefined when there is nothing to wait for (a cached key answers at once).
 */
function assertReadable(ctx: ServiceContext, collection: StoredCollection, credential: CredentialLookup): Promise<void> | undefined {
  if (collection.access === "public") return undefined;
  const principal = credential(readerKinds(collection));
  return principal instanceof Promise ? principal.then((p) => assertCanRead(ctx, collection, p)) : assertCanRead(ctx, collection, principal);
}

/**
 * The workspace's content version: the one read with the tenant when there is one, else read now.
 * Read before any data it labels (services/delivery-cache.ts).
 */
export function contentVersion(ctx: ServiceContext, workspace: { id: string; contentVersion?: number }): number | Promise<number> {
  return workspace.contentVersion ?? ctx.caches.delivery.version(workspace.id);
}
