/**
 * Ids of the rows that accumulate (entries, submissions, media, webhook outbox and delivery log):
 * UUIDv7 (RFC 9562), still "a UUID string" to every client, but time-ordered. A random (v4) id
 * lands each insert on a random leaf of the primary-key index and of every index that ends in
 * `id`, so a commit rewrites pages all over the file; a time-ordered id appends to the same few
 * pages, and a commit costs less CPU (measured: docs/benchmarks.md, "Figures behind code comments").
 */
import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

// The library's own random source asks Web Crypto for 16 bytes per id, which costs as much as a
// whole query (measured: docs/benchmarks.md, "Figures behind code comments"): random bytes are drawn here 4 KiB at a time instead.
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

/** A new time-ordered UUID for a row that accumulates (ids of one millisecond in random order). */
export function newRowId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  // v7 reads the 16 bytes before it returns, so the pool can be refilled later.
  return v7({ random: pool.subarray(used, (used += 16)) });
}
