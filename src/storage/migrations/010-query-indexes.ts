/**
 * Indexes of the entry list query language (docs/content.md): `sort=id` and its cursor
 * (`id > ?` after `collection_id` [and `status`]) read an index range like the other system
 * sorts (migration 004) instead of sorting the whole collection. Numbered 010 so it never
 * clashes with another branch's 009.
 */
export const queryIndexes = () => `
CREATE INDEX entries_status_id ON entries(collection_id, status, id);
CREATE INDEX entries_collection_id ON entries(collection_id, id);
`;
