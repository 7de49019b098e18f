import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../../src/core/errors.js";
import { ALL_GRANTS, type Grant } from "../../src/core/grants.js";
import { parseWithSchema } from "../../src/core/body-schema.js";
import { apiKeyBodySchema } from "../../src/core/keys.js";
import {
  MAX_KEY_COLLECTIONS,
  assertGrantIn,
  collectionsFromColumn,
  holdsGrantIn,
  inCollectionScope,
  inScope,
  keyCollectionsSchema,
  readsDrafts,
} from "../../src/core/key-scope.js";
import { OPERATOR, holdsGrant, type Actor } from "../../src/core/principal.js";

const base = { id: "k1", workspaceId: "w1" };
const key = (grants: Grant[], collections: string[] | null = null, publishedOnly = false): Actor => ({ kind: "key", ...base, grants, collections, publishedOnly });
const owner: Actor = { kind: "member", ...base, role: "owner", grants: [] };
const member = (grants: Grant[]): Actor => ({ kind: "member", ...base, role: "member", grants });
const nameArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
const grantsArb = fc.subarray([...ALL_GRANTS]);

function refusal(fn: () => void): { status: number; message: string; details: unknown } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (!isServiceError(err)) throw err;
    return { status: err.status, message: err.message, details: err.details };
  }
}

describe("collections: the key's collections and entries grants apply only there", () => {
  it("inside the scope a key holds exactly its grants; outside it none of collections:* and entries:*, the rest unchanged", () => {
    const k = key([...ALL_GRANTS], ["posts"]);
    for (const grant of ALL_GRANTS) {
      expect(holdsGrantIn(k, grant, "posts")).toBe(true);
      const scoped = grant.startsWith("collections:") || grant.startsWith("entries:");
      expect(holdsGrantIn(k, grant, "secrets")).toBe(!scoped);
    }
  });

  it("a narrowing never grants: holdsGrantIn ⇒ holdsGrant of the same key unnarrowed, for every grant, scope and collection", () => {
    fc.assert(
      fc.property(grantsArb, fc.option(fc.array(nameArb, { minLength: 1, maxLength: 4 })), fc.boolean(), nameArb, (grants, scope, publishedOnly, collection) => {
        const narrowed = key(grants, scope, publishedOnly);
        const plain = key(grants);
        for (const grant of ALL_GRANTS) {
          if (holdsGrantIn(narrowed, grant, collection)) expect(holdsGrant(plain, grant)).toBe(true);
          // Unnarrowed, the collection plays no part.
          expect(holdsGrantIn(plain, grant, collection)).toBe(holdsGrant(plain, grant));
        }
        expect(inScope(narrowed, [{ name: collection }, { name: "zz" }]).length).toBeLessThanOrEqual(2);
        if (publishedOnly) expect(readsDrafts(narrowed)).toBe(false);
      }),
    );
  });

  it("null scope is every collection; members, owners, the operator and accounts are never narrowed", () => {
    expect(inCollectionScope(key([], null), "anything")).toBe(true);
    expect(inCollectionScope(key([], ["posts"]), "posts")).toBe(true);
    expect(inCollectionScope(key([], ["posts"]), "post")).toBe(false);
    for (const actor of [owner, member(["entries:read"]), OPERATOR, undefined]) expect(inCollectionScope(actor, "secrets")).toBe(true);
    expect(holdsGrantIn(owner, "entries:write", "secrets")).toBe(true);
    expect(holdsGrantIn(member(["entries:read"]), "entries:read", "secrets")).toBe(true);
    expect(holdsGrantIn(undefined, "entries:read", "posts")).toBe(false);
  });

  it("inScope keeps only the key's collections, in the list's order", () => {
    const list = [{ name: "a" }, { name: "posts" }, { name: "secrets" }, { name: "tags" }];
    expect(inScope(key(["collections:read"], ["tags", "posts"]), list).map((c) => c.name)).toEqual(["posts", "tags"]);
    expect(inScope(key(["collections:read"]), list)).toEqual(list);
    expect(inScope(owner, list)).toEqual(list);
  });

  it("assertGrantIn: a missing grant stays the plain refusal; a held grant outside the scope names the grant and the collection", () => {
    expect(refusal(() => assertGrantIn(key(["media:read"], ["posts"]), "entries:read", "posts"))).toEqual({
      status: 403,
      message: "Missing grant: entries:read",
      details: { grant: "entries:read" },
    });
    const outside = refusal(() => assertGrantIn(key(["entries:write"], ["posts"]), "collections:write", "secrets"));
    expect(outside).toEqual({ status: 403, message: "Missing grant: collections:write", details: { grant: "collections:write" } });
    const scoped = refusal(() => assertGrantIn(key(["collections:write"], ["posts"]), "collections:write", "secrets"));
    expect(scoped?.status).toBe(403);
    expect(scoped?.message).toMatch(/^Missing grant: collections:write \(.*secrets is not one of them\)$/);
    expect(scoped?.details).toEqual({ grant: "collections:write", collection: "secrets" });
    expect(refusal(() => assertGrantIn(key(["collections:write"], ["posts"]), "collections:write", "posts"))).toBeUndefined();
  });
});

describe("published_only", () => {
  it("only a key with published_only is kept from drafts", () => {
    expect(readsDrafts(key(["entries:read"], null, true))).toBe(false);
    expect(readsDrafts(key(["entries:read"], null, false))).toBe(true);
    expect(readsDrafts({ kind: "key", ...base, grants: [] })).toBe(true);
    for (const actor of [owner, member([]), OPERATOR, undefined]) expect(readsDrafts(actor)).toBe(true);
  });
});

describe("validation of the key body", () => {
  const parse = (body: unknown) => parseWithSchema(apiKeyBodySchema, body, { named: true });
  const bad = (body: unknown) => refusal(() => parse(body));

  it("collections: null or absent is every collection; names are deduplicated and sorted; names need not exist", () => {
    expect(parse({ name: "site" })).toEqual({ name: "site" });
    expect(parse({ name: "site", collections: null }).collections).toBeNull();
    expect(parse({ name: "site", collections: ["posts", "authors", "posts"] }).collections).toEqual(["authors", "posts"]);
    expect(parse({ name: "site", published_only: true }).published_only).toBe(true);
  });

  it.each<[string, unknown, string, RegExp]>([
    ["not an array", "posts", "collections", /^collections must be null \(every collection\) or an array of collection names, got "posts"$/],
    ["an object", { a: 1 }, "collections", /got an object/],
    ["an empty list", [], "collections", /must not be empty: use null for every collection/],
    ["a bad name", ["posts", "Secrets"], "collections[1]", /^Invalid collection name at collections\[1\] \("Secrets"\)/],
    ["a name too long", ["a".repeat(64)], "collections[0]", /Invalid collection name at collections\[0\]/],
    ["a non-string", ["posts", 5], "collections", /collections\[1\] \(5\)/],
  ])("collections %s → 400 naming the field", (_n, collections, field, message) => {
    const r = bad({ name: "k", collections });
    expect(r?.status).toBe(400);
    expect(r?.message).toMatch(message);
    expect(r?.details).toEqual({ field });
  });

  it(`collections: at most ${MAX_KEY_COLLECTIONS} names`, () => {
    const names = Array.from({ length: MAX_KEY_COLLECTIONS + 1 }, (_, i) => `c${i}`);
    expect(bad({ name: "k", collections: names })).toMatchObject({ status: 400, message: `collections: at most ${MAX_KEY_COLLECTIONS} names` });
    expect(parse({ name: "k", collections: names.slice(1) }).collections).toHaveLength(MAX_KEY_COLLECTIONS);
  });

  it("published_only must be a boolean", () => {
    for (const v of ["true", 1, null]) expect(bad({ name: "k", published_only: v })).toMatchObject({ status: 400, message: "published_only must be true or false" });
  });

  it("the schema alone parses null, names and refusals", () => {
    expect(keyCollectionsSchema.parse(null)).toBeNull();
    expect(keyCollectionsSchema.safeParse(["9x"]).success).toBe(false);
  });
});

describe("stored collections column", () => {
  it("NULL is every collection; anything unreadable is no collection, never every one", () => {
    expect(collectionsFromColumn(null)).toBeNull();
    expect(collectionsFromColumn('["posts","tags"]')).toEqual(["posts", "tags"]);
    expect(collectionsFromColumn("garbage")).toEqual([]);
    expect(collectionsFromColumn("null")).toEqual([]);
    expect(collectionsFromColumn('{"a":1}')).toEqual([]);
    expect(collectionsFromColumn('["posts", 5, "Bad"]')).toEqual(["posts"]);
  });
});
