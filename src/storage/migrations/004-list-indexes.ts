/**
 * Indexes that match the list queries' ORDER BY exactly (sort column, then id as the tie-breaker),
 * so a page is read in index order instead of sorting every matching row: on PostgreSQL the older
 * three-column indexes left a sort of the whole collection per request (docs/benchmarks.md).
 */
export const listIndexes = () => `
DROP INDEX entries_delivery;
DROP INDEX entries_published;
DROP INDEX entries_updated;
CREATE INDEX entries_status_created ON entries(collection_id, status, created_at, id);
CREATE INDEX entries_status_published ON entries(collection_id, status, published_at, id);
CREATE INDEX entries_status_updated ON entries(collection_id, status, updated_at, id);
CREATE INDEX entries_created ON entries(collection_id, created_at, id);
CREATE INDEX entries_updated ON entries(collection_id, updated_at, id);
`;
