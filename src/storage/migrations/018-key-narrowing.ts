/**
 * Optional narrowing of API keys (core/key-scope.ts): `collections` is a JSON array of collection
 * names, NULL for every collection (what every existing key keeps); `published_only` limits the
 * key to published entries. Both are fixed at creation, like the grants, so no trigger needs to
 * bump the credentials version for them.
 */
export const keyNarrowing = () => `
ALTER TABLE api_keys ADD COLUMN collections TEXT;
ALTER TABLE api_keys ADD COLUMN published_only INTEGER NOT NULL DEFAULT 0;
`;
