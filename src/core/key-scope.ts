/**
 * Optional narrowing of an API key, on top of its grants (spec 2.2 stays exact; DESIGN §7: a
 * stricter behaviour is offered only as an opt-in). A key may be limited to some collections
 * (`collections`: its `collections:*` and `entries:*` grants apply only there; null = every
 * collection) and to published content (`published_only`: it reads only what the delivery API
 * would show). A narrowing only ever removes: a narrowed key is never broader than the same key
 * without it. Every other grant (media, forms, submissions, users, rules, sites) is unaffected.
 * The one home of the rule; services apply it (docs/access.md "Narrowed keys"). Pure: no I/O.
 *
 * @example
 * const key = { kind: "key", id, workspaceId, grants: ["entries:read"], collections: ["posts"], publishedOnly: true };
 * holdsGrantIn(key, "entries:read", "posts"); // true
 * holdsGrantIn(key, "entries:read", "secrets"); // false
 * readsDrafts(key); // false
 */
import { z } from "zod";
import { checkedBy } from "./body-schema.js";
import { isCollectionName } from "./collections.js";
import { badRequest, forbidden, missingGrant, type ServiceError } from "./errors.js";
import type { Grant, Resource } from "./grants.js";
import { holdsGrant, type Actor } from "./principal.js";

/** Most collections one key may be limited to. */
export const MAX_KEY_COLLECTIONS = 100;

/**
 * The resources whose grants a key's `collections` limits: definitions and their entries. Media,
 * forms, submissions, users, rules and sites have nothing to do with one collection.
 *
 * @example
 * SCOPED_RESOURCES.includes("media"); // false
 */
export const SCOPED_RESOURCES: readonly Resource[] = Object.freeze(["collections", "entries"]);

/** A key's narrowing as stored and listed. */
export interface KeyNarrowing {
  /** The collections its collections/entries grants apply to, sorted; null: every collection. */
  collections: string[] | null;
  /** Reads only published entries, on every surface. */
  published_only: boolean;
}

const COLLECTIONS_FORM = "null (every collection) or an array of collection names";
const invalidAt = (index: unknown, item: unknown) =>
  `Invalid collection name at collections[${String(index)}] (${describe(item)}): expected 1-63 lowercase letters, digits or underscores, starting with a letter`;

/**
 * `collections` as a key body sends it: null (or absent) for every collection, else names that
 * follow the collection-name rule. A name need not exist yet (a key for a collection created
 * later is a real use); the result is deduplicated and sorted; an empty list is refused (a key
 * limited to nothing would hold its collection grants for nothing: give it none instead).
 */
export const keyCollectionsSchema = z
  .array(z.string({ error: (issue) => invalidAt(issue.path?.at(-1), issue.input) }), {
    error: (issue) => `collections must be ${COLLECTIONS_FORM}, got ${describe(issue.input)}`,
  })
  .nullable()
  .transform(
    checkedBy((items) => {
      if (items === null) return null;
      items.forEach((item, i) => {
        if (!isCollectionName(item)) throw badRequest(invalidAt(i, item), { field: `collections[${i}]` });
      });
      const names = [...new Set(items)].sort();
      if (names.length === 0) throw badRequest(`collections must not be empty: use null for every collection`, { field: "collections" });
      if (names.length > MAX_KEY_COLLECTIONS) throw badRequest(`collections: at most ${MAX_KEY_COLLECTIONS} names`, { field: "collections" });
      return names;
    }),
  )
  .meta({ description: `The collections the key's collections:* and entries:* grants apply to: ${COLLECTIONS_FORM} (default null)` });

/** `published_only` as a key body sends it. */
export const publishedOnlySchema = z
  .boolean({ error: "published_only must be true or false" })
  .meta({ description: "The key reads only published entries, on every surface (default false)" });

/**
 * Whether a key's collection grants reach `collection`. Anything but a narrowed key (members,
 * owners, the operator, accounts) is not narrowed: its grants decide alone.
 *
 * @example
 * inCollectionScope({ kind: "key", …, collections: ["posts"] }, "pages"); // false
 */
export function inCollectionScope(actor: Actor | undefined, collection: string): boolean {
  if (actor?.kind !== "key" || !actor.collections) return true;
  return actor.collections.includes(collection);
}

/**
 * Whether `actor` holds `grant` for `collection`: holdsGrant, and for a collections or entries
 * grant the key's collection scope too. Never true where holdsGrant is false.
 *
 * @example
 * holdsGrantIn(key, "media:read", "secrets"); // media is never narrowed: holdsGrant(key, "media:read")
 */
export function holdsGrantIn(actor: Actor | undefined, grant: Grant, collection: string): boolean {
  if (!holdsGrant(actor, grant)) return false;
  return !SCOPED_RESOURCES.includes(resourceOf(grant)) || inCollectionScope(actor, collection);
}

/**
 * Throws unless {@link holdsGrantIn}: 403 `Missing grant: <grant>` with the collection, and for a
 * key whose scope excludes it a message saying so (what refuses a named collection the caller
 * chose itself, e.g. creating one).
 */
export function assertGrantIn(actor: Actor | undefined, grant: Grant, collection: string): void {
  if (holdsGrantIn(actor, grant, collection)) return;
  if (!holdsGrant(actor, grant)) throw missingGrant(grant);
  throw outsideScope(grant, collection);
}

/** The 403 of a grant the key holds but not for `collection`; `details` adds keys (e.g. the parameter). */
export function outsideScope(grant: Grant, collection: string, details?: Record<string, unknown>): ServiceError {
  return forbidden(`Missing grant: ${grant} (this API key's collection grants apply only to the collections it is limited to; ${collection} is not one of them)`, {
    grant,
    collection,
    ...details,
  });
}

/**
 * Whether `actor` may see drafts at all: false only for a key narrowed to published entries.
 *
 * @example
 * readsDrafts({ kind: "key", …, publishedOnly: true }); // false
 */
export function readsDrafts(actor: Actor | undefined): boolean {
  return !(actor?.kind === "key" && actor.publishedOnly === true);
}

/**
 * Whether `actor` is a key with any narrowing: what it may learn is less than what a refusal
 * would otherwise say (counts of entries it cannot see, names of collections it cannot list).
 *
 * @example
 * isNarrowed({ kind: "key", …, collections: null, publishedOnly: false }); // false
 */
export function isNarrowed(actor: Actor | undefined): boolean {
  return actor?.kind === "key" && (actor.collections != null || actor.publishedOnly === true);
}

/**
 * The collections of `list` whose names are in the actor's scope (all of them unless a narrowed
 * key): what collection listings, the SDK and the OpenAPI document show it.
 *
 * @example
 * inScope(key, collections).map((c) => c.name); // ["posts"]
 */
export function inScope<T extends { name: string }>(actor: Actor | undefined, list: readonly T[]): T[] {
  return list.filter((c) => inCollectionScope(actor, c.name));
}

/**
 * A stored `collections` column (JSON text or NULL) read back leniently but never widened: NULL
 * is every collection; anything unreadable, or with no valid name left, is no collection at all.
 *
 * @example
 * collectionsFromColumn(null); // null
 * collectionsFromColumn("garbage"); // []
 */
export function collectionsFromColumn(value: string | null): string[] | null {
  if (value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === "string" && isCollectionName(n)) : [];
}

function resourceOf(grant: Grant): Resource {
  return grant.slice(0, grant.indexOf(":")) as Resource;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}
